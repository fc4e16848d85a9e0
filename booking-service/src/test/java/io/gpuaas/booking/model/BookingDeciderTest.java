package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.ADMIN;
import static io.gpuaas.booking.model.Fixtures.NOW;
import static io.gpuaas.booking.model.Fixtures.POOLS;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.cancel;
import static io.gpuaas.booking.model.Fixtures.change;
import static io.gpuaas.booking.model.Fixtures.create;
import static io.gpuaas.booking.model.Fixtures.h;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Interval;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BookingDeciderTest {

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());

    private BookingEvent run(BookingCommand command) {
        Decision decision = decider.decide(command, ledger, NOW);
        ledger.apply(decision);
        return decision.events().getFirst();
    }

    private Booking confirm(BookingCommand command) {
        return ((BookingConfirmed) run(command)).booking();
    }

    @Test
    void shouldConfirmWhenCapacityIsFree() {
        Booking booking = confirm(create(TEAM_A, null, 5, h(1), h(3)));

        assertThat(booking.state()).isEqualTo(BookingState.CONFIRMED);
        assertThat(booking.resource()).isEqualTo("nvidia.com/gpu");
        assertThat(ledger.timeline("h200").reservedAt(h(2))).isEqualTo(5);
    }

    @Test
    void shouldRejectWithConflictsAndEarliestStartWhenThePoolIsFull() {
        confirm(create(TEAM_A, null, 6, h(1), h(3)));

        BookingRejected rejected = (BookingRejected) run(create(TEAM_B, null, 3, h(2), h(4)));

        assertThat(rejected.reason()).isEqualTo("CAPACITY");
        assertThat(rejected.conflicts()).containsExactly(new Interval(h(2), h(3), 6));
        assertThat(rejected.earliestStart()).isEqualTo(h(3));
    }

    @Test
    void shouldGiveTheSameAnswerWhenTheSameKeyAndBodyRepeat() {
        BookingCommand first = create(TEAM_A, "key-1", 2, h(1), h(2));
        Booking booking = confirm(first);

        BookingEvent again = run(create(TEAM_A, "key-1", 2, h(1), h(2)));

        assertThat(again).isInstanceOf(BookingConfirmed.class);
        assertThat(((BookingConfirmed) again).booking()).isEqualTo(booking);
        assertThat(ledger.timeline("h200").reservedAt(h(1))).isEqualTo(2);
    }

    @Test
    void shouldRejectWithIdempotencyMismatchWhenTheKeyComesBackWithAnotherBody() {
        confirm(create(TEAM_A, "key-1", 2, h(1), h(2)));

        BookingRejected rejected = (BookingRejected) run(create(TEAM_A, "key-1", 3, h(1), h(2)));

        assertThat(rejected.reason()).isEqualTo("IDEMPOTENCY_MISMATCH");
    }

    @Test
    void shouldRejectWithIdempotencyMismatchWhenTheEdgeFingerprintDiffersThoughTheFieldsMatch() {
        CreateBooking first = create(TEAM_A, "key-1", 2, h(1), h(2));
        confirm(withFingerprint(first, "POST-a"));

        BookingEvent same = run(withFingerprint(create(TEAM_A, "key-1", 2, h(1), h(2)), "POST-a"));
        BookingEvent other = run(withFingerprint(create(TEAM_A, "key-1", 2, h(1), h(2)), "DELETE-b"));

        assertThat(same).isInstanceOf(BookingConfirmed.class);
        assertThat(((BookingRejected) other).reason()).isEqualTo("IDEMPOTENCY_MISMATCH");
    }

    @Test
    void shouldRejectAStartOffTheAlignmentByOneNanosecond() {
        BookingRejected rejected = (BookingRejected) run(create(TEAM_A, null, 1, h(1).plusNanos(999), h(2)));

        assertThat(rejected.reason()).isEqualTo("POLICY_ALIGNMENT");
    }

    private static CreateBooking withFingerprint(CreateBooking c, String fingerprint) {
        return new CreateBooking(
                c.requestId(),
                c.idempotencyKey(),
                c.caller(),
                c.pool(),
                c.bookingId(),
                c.namespace(),
                c.quantity(),
                c.start(),
                c.end(),
                c.purpose(),
                c.requestedAt(),
                fingerprint);
    }

    @Test
    void shouldKeepIdempotencyKeysApartWhenTwoTenantsPickTheSameKey() {
        confirm(create(TEAM_A, "key-1", 2, h(1), h(2)));

        assertThat(run(create(TEAM_B, "key-1", 3, h(1), h(2)))).isInstanceOf(BookingConfirmed.class);
    }

    @Test
    void shouldAnswerNotFoundWhenAnotherTenantCancels() {
        Booking booking = confirm(create(TEAM_A, null, 2, h(1), h(2)));

        BookingRejected rejected = (BookingRejected) run(cancel(TEAM_B, booking.id()));

        assertThat(rejected.reason()).isEqualTo("NOT_FOUND");
        assertThat(ledger.booking(booking.id()).orElseThrow().state()).isEqualTo(BookingState.CONFIRMED);
    }

    @Test
    void shouldFreeCapacityWhenTheOwnerOrAnAdminCancels() {
        Booking mine = confirm(create(TEAM_A, null, 8, h(1), h(2)));
        run(cancel(TEAM_A, mine.id()));
        Booking other = confirm(create(TEAM_B, null, 8, h(1), h(2)));
        run(cancel(ADMIN, other.id()));

        assertThat(ledger.timeline("h200").reservedAt(h(1))).isZero();
        assertThat(ledger.booking(other.id()).orElseThrow().state()).isEqualTo(BookingState.CANCELLED);
    }

    @Test
    void shouldExtendWithoutConflictingWithItselfWhenTheWindowGrows() {
        Booking booking = confirm(create(TEAM_A, null, 8, h(1), h(2)));

        BookingEvent extended = run(change(TEAM_A, booking.id(), h(1), h(4)));

        assertThat(extended).isInstanceOf(BookingEvent.BookingExtended.class);
        assertThat(ledger.timeline("h200").reservedAt(h(3))).isEqualTo(8);
        assertThat(ledger.timeline("h200").reservedAt(h(4))).isZero();
    }

    @Test
    void shouldRefuseAnExtensionWhenItRunsIntoAnotherBooking() {
        Booking booking = confirm(create(TEAM_A, null, 5, h(1), h(2)));
        confirm(create(TEAM_B, null, 5, h(3), h(4)));

        BookingRejected rejected = (BookingRejected) run(change(TEAM_A, booking.id(), h(1), h(4)));

        assertThat(rejected.reason()).isEqualTo("CAPACITY");
        assertThat(ledger.booking(booking.id()).orElseThrow().end()).isEqualTo(h(2));
    }

    @Test
    void shouldRejectEachPolicyRuleWhenTheWindowBreaksIt() {
        assertThat(reason(create(TEAM_A, null, 0, h(1), h(2)))).isEqualTo("INVALID_QUANTITY");
        assertThat(reason(create(TEAM_A, null, 9, h(1), h(2)))).isEqualTo("INVALID_QUANTITY");
        assertThat(reason(create(TEAM_A, null, 1, h(2), h(1)))).isEqualTo("INVALID_WINDOW");
        assertThat(reason(create(TEAM_A, null, 1, h(-2), h(1)))).isEqualTo("START_IN_PAST");
        assertThat(reason(create(TEAM_A, null, 1, h(1), h(1).plus(Duration.ofDays(15)))))
                .isEqualTo("POLICY_MAX_DURATION");
        assertThat(reason(create(TEAM_A, null, 1, h(24 * 100), h(24 * 100 + 1))))
                .isEqualTo("POLICY_MAX_ADVANCE");
        assertThat(reason(create(TEAM_A, null, 1, h(1).plusSeconds(60), h(2)))).isEqualTo("POLICY_ALIGNMENT");
    }

    @Test
    void shouldCapATenantWhenThePolicyLimitsItsShare() {
        BookingDecider capped = new BookingDecider(
                POOLS,
                new BookingPolicy(
                        Duration.ofDays(1), Duration.ofDays(30), Duration.ofMinutes(15), 0.5, Duration.ofMinutes(1)));
        ledger.apply(capped.decide(create(TEAM_A, null, 3, h(1), h(3)), ledger, NOW));

        Decision second = capped.decide(create(TEAM_A, null, 2, h(2), h(4)), ledger, NOW);

        assertThat(((BookingRejected) second.events().getFirst()).reason()).isEqualTo("POLICY_TENANT_CAP");
        assertThat(capped.decide(create(TEAM_B, null, 4, h(2), h(4)), ledger, NOW)
                        .events()
                        .getFirst())
                .isInstanceOf(BookingConfirmed.class);
    }

    @Test
    void shouldActivateAtStartAndCompleteAtEndWhenTheClockPasses() {
        Booking booking = confirm(create(TEAM_A, null, 2, h(1), h(2)));

        Decision atStart = decider.advance(ledger, h(1));
        ledger.apply(atStart);
        Decision atEnd = decider.advance(ledger, h(2));
        ledger.apply(atEnd);

        assertThat(atStart.events()).singleElement().isInstanceOf(BookingEvent.BookingActivated.class);
        assertThat(atEnd.events()).singleElement().isInstanceOf(BookingEvent.BookingCompleted.class);
        assertThat(ledger.booking(booking.id()).orElseThrow().state()).isEqualTo(BookingState.COMPLETED);
        assertThat(decider.advance(ledger, h(3)).events()).isEmpty();
    }

    @Test
    void shouldRebuildTheSameTimelineWhenTheLedgerRestartsFromItsRepository() {
        InMemoryBookingRepository repository = new InMemoryBookingRepository();
        BookingLedger first = new BookingLedger(repository);
        first.apply(decider.decide(create(TEAM_A, null, 3, h(1), h(3)), first, NOW));

        BookingLedger restarted = new BookingLedger(repository).rebuild();

        assertThat(restarted.timeline("h200").segments(h(0), h(4)))
                .isEqualTo(first.timeline("h200").segments(h(0), h(4)));
        assertThat(restarted.dueAt(h(1))).hasSize(1);
    }

    private String reason(BookingCommand command) {
        return ((BookingRejected) decider.decide(command, ledger, NOW).events().getFirst()).reason();
    }
}
