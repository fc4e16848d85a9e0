package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.ADMIN;
import static io.gpuaas.booking.model.Fixtures.NOW;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.cancel;
import static io.gpuaas.booking.model.Fixtures.create;
import static io.gpuaas.booking.model.Fixtures.h;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.DecideApproval;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingApprovalDecided;
import io.gpuaas.events.booking.BookingEvent.BookingApprovalDecided.Outcome;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingPendingApproval;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolApproval;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Bookings over the pool's approval threshold wait for an admin, holding their units. */
class ApprovalDecisionTest {

    /** h200: 8 GPUs; over 32 GPU-hours needs approval, held 6 hours at most. */
    private static final PoolCatalog POOLS =
            new PoolCatalog(List.of(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null)
                    .withApproval(new PoolApproval(32, Duration.ofHours(6)))));

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository(), POOLS);

    private BookingEvent decide(BookingCommand command, Instant at) {
        Decision decision = decider.decide(command, ledger, at);
        ledger.apply(decision);
        return decision.events().getLast();
    }

    private static DecideApproval approval(Caller caller, String bookingId, boolean approve) {
        return new DecideApproval(
                UUID.randomUUID().toString(), null, caller, "h200", bookingId, approve, "ok by ops", NOW, null);
    }

    /** 8 GPUs over [h10, h20): 80 GPU-hours, over the threshold. */
    private BookingPendingApproval pending() {
        return (BookingPendingApproval) decide(create(TEAM_A, null, 8, h(10), h(20)), NOW);
    }

    @Test
    void shouldHoldTheUnitsButNotConfirmWhenABookingIsOverTheThreshold() {
        BookingPendingApproval pending = pending();

        assertThat(pending.booking().state()).isEqualTo(BookingState.PENDING_APPROVAL);
        assertThat(pending.unitHours()).isEqualTo(80.0);
        assertThat(pending.threshold()).isEqualTo(32.0);
        assertThat(pending.holdUntil()).isEqualTo(h(6));
        assertThat(ledger.timeline("h200").reservedAt(h(12))).isEqualTo(8);
        BookingRejected other = (BookingRejected) decide(create(TEAM_B, null, 1, h(11), h(12)), NOW);
        assertThat(other.reason()).isEqualTo("CAPACITY");
    }

    @Test
    void shouldConfirmWithoutApprovalWhenUnderTheThresholdOrBookedByAnAdmin() {
        assertThat(decide(create(TEAM_A, null, 4, h(10), h(18)), NOW)).isInstanceOf(BookingConfirmed.class);
        assertThat(decide(create(ADMIN, null, 4, h(30), h(40)), NOW)).isInstanceOf(BookingConfirmed.class);
    }

    @Test
    void shouldConfirmAndLaterActivateWhenAnAdminApproves() {
        Booking booking = pending().booking();

        BookingApprovalDecided approved = (BookingApprovalDecided) decide(approval(ADMIN, booking.id(), true), h(1));

        assertThat(approved.outcome()).isEqualTo(Outcome.APPROVED);
        assertThat(approved.booking().state()).isEqualTo(BookingState.CONFIRMED);
        assertThat(approved.decidedBy()).isEqualTo("root");
        assertThat(ledger.timeline("h200").reservedAt(h(12))).isEqualTo(8);
        Decision expiryTime = decider.advance(ledger, h(7));
        assertThat(expiryTime.events())
                .as("an approved booking does not expire")
                .isEmpty();
        Decision start = decider.advance(ledger, h(10));
        ledger.apply(start);
        assertThat(ledger.booking(booking.id()).orElseThrow().state()).isEqualTo(BookingState.ACTIVE);
        assertThat(Approvals.notices(new Decision(List.of(approved), List.of(), null)))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.noticeId()).isEqualTo(Notice.approvalDecidedId(booking.id()));
                    assertThat(n.outcome()).isEqualTo(Outcome.APPROVED);
                    assertThat(n.reason()).isEqualTo("ok by ops");
                });
    }

    @Test
    void shouldFreeTheUnitsWhenAnAdminDenies() {
        Booking booking = pending().booking();

        BookingApprovalDecided denied = (BookingApprovalDecided) decide(approval(ADMIN, booking.id(), false), h(1));

        assertThat(denied.outcome()).isEqualTo(Outcome.DENIED);
        assertThat(denied.booking().state()).isEqualTo(BookingState.DENIED);
        assertThat(ledger.timeline("h200").reservedAt(h(12))).isZero();
        assertThat(decide(create(TEAM_B, null, 1, h(11), h(12)), h(1))).isInstanceOf(BookingConfirmed.class);
    }

    @Test
    void shouldExpireOnTheClockWhenNobodyDecidesWithinTheHold() {
        Booking booking = pending().booking();

        assertThat(decider.advance(ledger, h(6).minusMillis(1)).events()).isEmpty();
        Decision expired = decider.advance(ledger, h(6));
        ledger.apply(expired);

        assertThat(expired.events()).singleElement().isInstanceOfSatisfying(BookingApprovalDecided.class, e -> {
            assertThat(e.outcome()).isEqualTo(Outcome.EXPIRED);
            assertThat(e.requestId()).isNull();
            assertThat(e.booking().state()).isEqualTo(BookingState.DENIED);
        });
        assertThat(ledger.timeline("h200").reservedAt(h(12))).isZero();
        BookingRejected late = (BookingRejected) decide(approval(ADMIN, booking.id(), true), h(7));
        assertThat(late.reason()).isEqualTo("INVALID_STATE");
    }

    @Test
    void shouldExpireTheSameWayWhenTheLedgerIsRebuiltFromItsStore() {
        InMemoryBookingRepository store = new InMemoryBookingRepository();
        BookingLedger first = new BookingLedger(store, POOLS);
        first.apply(decider.decide(create(TEAM_A, null, 8, h(10), h(20)), first, NOW));

        BookingLedger rebuilt = new BookingLedger(store, POOLS).rebuild();

        assertThat(decider.advance(rebuilt, h(6).minusMillis(1)).events()).isEmpty();
        assertThat(decider.advance(rebuilt, h(6)).events()).singleElement().isInstanceOf(BookingApprovalDecided.class);
    }

    @Test
    void shouldNeverHoldPastTheStartWhenTheBookingBeginsBeforeTheHoldEnds() {
        BookingPendingApproval pending = (BookingPendingApproval) decide(create(TEAM_A, null, 8, h(2), h(12)), NOW);

        assertThat(pending.holdUntil()).isEqualTo(h(2));
        Decision atStart = decider.advance(ledger, h(2));
        assertThat(atStart.events()).singleElement().isInstanceOf(BookingApprovalDecided.class);
        assertThat(atStart.changes()).singleElement().extracting(Booking::state).isEqualTo(BookingState.DENIED);
    }

    @Test
    void shouldRefuseAnyoneButAnAdminAndAnythingNotAwaitingApproval() {
        Booking booking = pending().booking();

        assertThat(((BookingRejected) decide(approval(TEAM_A, booking.id(), true), h(1))).reason())
                .isEqualTo("NOT_PERMITTED");
        assertThat(((BookingRejected) decide(approval(ADMIN, "nope", true), h(1))).reason())
                .isEqualTo("NOT_FOUND");
        decide(approval(ADMIN, booking.id(), false), h(1));
        assertThat(((BookingRejected) decide(approval(ADMIN, booking.id(), true), h(1))).reason())
                .isEqualTo("INVALID_STATE");
    }

    @Test
    void shouldLetTheTenantWithdrawItsRequestWhileItAwaitsApproval() {
        Booking booking = pending().booking();

        BookingEvent cancelled = decide(cancel(TEAM_A, booking.id()), h(1));

        assertThat(cancelled).isInstanceOf(BookingEvent.BookingCancelled.class);
        assertThat(ledger.timeline("h200").reservedAt(h(12))).isZero();
        assertThat(decider.advance(ledger, h(7)).events())
                .as("nothing left to expire")
                .isEmpty();
    }

    @Test
    void shouldRefuseABookNowOverTheThresholdWhenNothingIsLeftToWaitIn() {
        BookingRejected refused =
                (BookingRejected) decide(Fixtures.bookNow(TEAM_A, null, 8, null, Duration.ofHours(10)), NOW);

        assertThat(refused.reason()).isEqualTo("APPROVAL_REQUIRED");
        assertThat(ledger.timeline("h200").reservedAt(NOW)).isZero();
    }

    @Test
    void shouldReplayThePendingAnswerWhenTheSameKeyIsSentAgain() {
        BookingCommand.CreateBooking first = create(TEAM_A, "k-1", 8, h(10), h(20));
        decide(first, NOW);
        BookingCommand.CreateBooking again = new BookingCommand.CreateBooking(
                "req-again", "k-1", TEAM_A, "h200", UUID.randomUUID().toString(), "team-a", 8, h(10), h(20), null, NOW);

        BookingPendingApproval replay = (BookingPendingApproval) decide(again, NOW);

        assertThat(replay.requestId()).isEqualTo("req-again");
        assertThat(replay.booking().id()).isEqualTo(first.bookingId());
    }

    /** A create that waits until {@code latest} when it does not fit. */
    private static BookingCommand.CreateBooking waiting(
            Caller caller, int quantity, Instant start, Instant end, Instant latest) {
        return new BookingCommand.CreateBooking(
                UUID.randomUUID().toString(),
                null,
                caller,
                "h200",
                UUID.randomUUID().toString(),
                caller.tenant(),
                quantity,
                start,
                end,
                null,
                NOW,
                null,
                null,
                null,
                latest);
    }

    @Test
    void shouldHoldForApprovalWhenAWaitingRequestIsBookedAtOnceAtALaterStart() {
        decide(create(ADMIN, null, 8, h(10), h(12)), NOW);

        // 8 GPUs for 5 hours: 40 GPU-hours, fits from h12, which is before its latest start.
        BookingEvent answer = decide(waiting(TEAM_A, 8, h(10), h(15), h(13)), NOW);

        assertThat(answer).isInstanceOfSatisfying(BookingPendingApproval.class, p -> {
            assertThat(p.booking().state()).isEqualTo(BookingState.PENDING_APPROVAL);
            assertThat(p.booking().start()).isEqualTo(h(12));
            assertThat(p.holdUntil()).isEqualTo(h(6));
        });
        assertThat(ledger.timeline("h200").reservedAt(h(13))).isEqualTo(8);
        assertThat(decider.advance(ledger, h(6)).events())
                .singleElement()
                .isInstanceOfSatisfying(BookingApprovalDecided.class, e -> assertThat(e.outcome())
                        .isEqualTo(Outcome.EXPIRED));
    }

    @Test
    void shouldHoldForApprovalWhenAWaitlistedRequestOverTheThresholdFitsAfterACancel() {
        Booking blocking = ((BookingConfirmed) decide(create(ADMIN, null, 8, h(10), h(14)), NOW)).booking();
        BookingEvent waits = decide(waiting(TEAM_A, 8, h(10), h(15), h(11)), NOW);
        assertThat(waits).isInstanceOf(BookingEvent.BookingWaitlisted.class);

        Decision cancelled = decider.decide(cancel(ADMIN, blocking.id()), ledger, h(1));
        ledger.apply(cancelled);
        List<Decision> settled = decider.settleWaitlist(cancelled, ledger, h(1));

        assertThat(settled).singleElement().satisfies(d -> {
            assertThat(d.events().getFirst()).isInstanceOfSatisfying(BookingEvent.WaitlistEnded.class, e -> assertThat(
                            e.entry().state())
                    .isEqualTo(io.gpuaas.events.booking.WaitlistEntry.State.BOOKED));
            assertThat(d.events()).noneMatch(BookingConfirmed.class::isInstance).anySatisfy(e -> assertThat(e)
                    .isInstanceOfSatisfying(BookingPendingApproval.class, p -> {
                        assertThat(p.booking().id()).isEqualTo(waits.bookingId());
                        assertThat(p.holdUntil()).isEqualTo(h(7));
                    }));
        });
        assertThat(ledger.booking(waits.bookingId()).orElseThrow().state()).isEqualTo(BookingState.PENDING_APPROVAL);
        assertThat(((BookingRejected) decide(create(TEAM_B, null, 1, h(11), h(12)), h(1))).reason())
                .as("the held booking keeps its units from others")
                .isEqualTo("CAPACITY");
    }

    @Test
    void shouldHoldEachSeriesOccurrenceOverTheThresholdAndConfirmTheOthers() {
        decide(create(ADMIN, null, 4, h(24 + 10), h(24 + 12)), NOW);
        BookingCommand.CreateSeries series = new BookingCommand.CreateSeries(
                UUID.randomUUID().toString(),
                null,
                TEAM_A,
                "h200",
                UUID.randomUUID().toString(),
                "team-a",
                8,
                h(10),
                h(15),
                null,
                null,
                null,
                "FREQ=DAILY;COUNT=2",
                null,
                BookingCommand.SeriesMode.EACH,
                NOW,
                null);

        Decision decided = decider.decide(series, ledger, NOW);
        ledger.apply(decided);

        BookingEvent.SeriesDecided answer =
                (BookingEvent.SeriesDecided) decided.events().getFirst();
        assertThat(answer.confirmed())
                .as("the first occurrence, 40 GPU-hours, held; the second refused for capacity")
                .singleElement()
                .satisfies(b -> {
                    assertThat(b.state()).isEqualTo(BookingState.PENDING_APPROVAL);
                    assertThat(b.seriesId()).isEqualTo(series.seriesId());
                });
        assertThat(answer.refused()).singleElement().extracting(r -> r.reason()).isEqualTo("CAPACITY");
        assertThat(decided.events())
                .noneMatch(BookingConfirmed.class::isInstance)
                .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(BookingPendingApproval.class, p -> assertThat(
                                p.booking().seriesId())
                        .isEqualTo(series.seriesId())));
        assertThat(ledger.timeline("h200").reservedAt(h(12))).isEqualTo(8);
    }

    @Test
    void shouldConfirmSeriesOccurrencesUnderTheThresholdWithoutApproval() {
        BookingCommand.CreateSeries series = new BookingCommand.CreateSeries(
                UUID.randomUUID().toString(),
                null,
                TEAM_A,
                "h200",
                UUID.randomUUID().toString(),
                "team-a",
                4,
                h(10),
                h(12),
                null,
                null,
                null,
                "FREQ=DAILY;COUNT=2",
                null,
                BookingCommand.SeriesMode.EACH,
                NOW,
                null);

        Decision decided = decider.decide(series, ledger, NOW);

        assertThat(((BookingEvent.SeriesDecided) decided.events().getFirst()).confirmed())
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.state()).isEqualTo(BookingState.CONFIRMED));
    }

    @Test
    void shouldTellTheTenantOnceThatItsBookingAwaitsApprovalWithTheHoldsEnd() {
        Decision decision = decider.decide(create(TEAM_A, null, 8, h(10), h(20)), ledger, NOW);
        Booking booking = decision.changes().getFirst();

        assertThat(Approvals.awaiting(decision)).singleElement().satisfies(n -> {
            assertThat(n.noticeId()).isEqualTo(Notice.awaitingApprovalId(booking.id()));
            assertThat(n.bookingId()).isEqualTo(booking.id());
            assertThat(n.tenant()).isEqualTo("team-a");
            assertThat(n.holdUntil()).isEqualTo(h(6));
            assertThat(n.unitHours()).isEqualTo(80.0);
            assertThat(n.threshold()).isEqualTo(32.0);
            assertThat(n.start()).isEqualTo(h(10));
        });
        assertThat(Approvals.awaiting(decider.decide(create(TEAM_A, null, 1, h(30), h(31)), ledger, NOW)))
                .as("nothing awaits approval under the threshold")
                .isEmpty();
    }

    @Test
    void shouldNotTellAgainWhenThePendingAnswerIsReplayedForTheSameKey() {
        BookingCommand.CreateBooking first = create(TEAM_A, "k-2", 8, h(10), h(20));
        Decision original = decider.decide(first, ledger, NOW);
        ledger.apply(original);
        BookingCommand.CreateBooking again = new BookingCommand.CreateBooking(
                "req-again", "k-2", TEAM_A, "h200", UUID.randomUUID().toString(), "team-a", 8, h(10), h(20), null, NOW);

        Decision replay = decider.decide(again, ledger, NOW);

        assertThat(replay.events()).singleElement().isInstanceOf(BookingPendingApproval.class);
        assertThat(Approvals.awaiting(original)).hasSize(1);
        assertThat(Approvals.awaiting(replay)).isEmpty();
    }
}
