package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.POOLS;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.cancel;
import static io.gpuaas.booking.model.Fixtures.create;
import static io.gpuaas.booking.model.Fixtures.h;
import static io.gpuaas.booking.model.Fixtures.release;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.BookingWaitlisted;
import io.gpuaas.events.booking.BookingEvent.WaitlistEnded;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.notice.Notice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A refused create that asked to wait: waiting, booked when capacity frees (in arrival order), cancelled, expired. */
class WaitlistDecisionTest {

    private static final Instant NOW = Fixtures.NOW;

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final InMemoryBookingRepository bookings = new InMemoryBookingRepository();
    private final InMemoryWaitlistRepository waiting = new InMemoryWaitlistRepository();
    private final BookingLedger ledger = new BookingLedger(bookings, POOLS, waiting);

    /** What the decision engine does with a command: decide, apply, then book what it freed. */
    private List<Decision> step(BookingCommand command, Instant at) {
        List<Decision> out = new ArrayList<>();
        Decision decision = decider.decide(command, ledger, at);
        ledger.apply(decision);
        out.add(decision);
        out.addAll(decider.settleWaitlist(decision, ledger, at));
        return out;
    }

    private BookingEvent answer(BookingCommand command, Instant at) {
        return step(command, at).getFirst().events().getFirst();
    }

    private static CreateBooking waiting(Caller caller, int quantity, Instant start, Instant end, Instant latest) {
        return new CreateBooking(
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

    private Booking confirmed(Caller caller, int quantity, Instant start, Instant end) {
        return ((BookingConfirmed) answer(create(caller, null, quantity, start, end), NOW)).booking();
    }

    private static List<BookingEvent> events(List<Decision> decisions) {
        return decisions.stream().flatMap(d -> d.events().stream()).toList();
    }

    @Test
    void shouldWaitWhenTheWindowIsFullUpToItsLatestStart() {
        confirmed(TEAM_A, 8, h(1), h(10));

        BookingEvent answer = answer(waiting(TEAM_B, 4, h(1), h(3), h(4)), NOW);

        BookingWaitlisted waitlisted = (BookingWaitlisted) answer;
        assertThat(waitlisted.entry().state()).isEqualTo(WaitlistEntry.State.WAITING);
        assertThat(waitlisted.entry().length()).isEqualTo(Duration.ofHours(2));
        assertThat(waitlisted.conflicts()).isNotEmpty();
        assertThat(ledger.waitlist().waiting("h200")).containsExactly(waitlisted.entry());
        assertThat(ledger.timeline("h200").maxReserved(h(1), h(10)))
                .as("waiting holds nothing")
                .isEqualTo(8);
    }

    @Test
    void shouldBookAtTheFirstLaterStartThatFitsWhenThatIsWithinTheLatestStart() {
        confirmed(TEAM_A, 8, h(1), h(3));

        BookingEvent answer = answer(waiting(TEAM_B, 4, h(1), h(3), h(5)), NOW);

        Booking booked = ((BookingConfirmed) answer).booking();
        assertThat(booked.start()).isEqualTo(h(3));
        assertThat(booked.end()).isEqualTo(h(5));
        assertThat(ledger.waitlist().size()).isZero();
    }

    @Test
    void shouldStayRefusedWhenTheRequestDoesNotWaitOrIsRefusedForAnotherRule() {
        confirmed(TEAM_A, 8, h(1), h(10));

        assertThat(answer(create(TEAM_B, null, 4, h(1), h(3)), NOW)).isInstanceOf(BookingRejected.class);
        BookingRejected backwards = (BookingRejected) answer(waiting(TEAM_B, 4, h(2), h(3), h(1)), NOW);
        BookingRejected tooMany = (BookingRejected) answer(waiting(TEAM_B, 9, h(2), h(3), h(5)), NOW);

        assertThat(backwards.reason()).isEqualTo("INVALID_WAITLIST");
        assertThat(tooMany.reason()).as("more than the pool holds never fits").isNotEqualTo("CAPACITY");
        assertThat(ledger.waitlist().size()).isZero();
    }

    @Test
    void shouldBookWaitingEntriesInArrivalOrderWhenACancelFreesRoom() {
        Booking big = confirmed(TEAM_A, 8, h(1), h(10));
        BookingWaitlisted first = (BookingWaitlisted) answer(waiting(TEAM_B, 6, h(1), h(3), h(2)), NOW);
        BookingWaitlisted second = (BookingWaitlisted) answer(waiting(TEAM_B, 4, h(1), h(3), h(2)), NOW.plusMillis(1));
        BookingWaitlisted third = (BookingWaitlisted) answer(waiting(TEAM_A, 2, h(1), h(3), h(2)), NOW.plusMillis(2));

        List<Decision> decisions = step(cancel(TEAM_A, big.id()), NOW.plusSeconds(60));

        List<BookingEvent> events = events(decisions);
        assertThat(events)
                .filteredOn(WaitlistEnded.class::isInstance)
                .extracting(e -> ((WaitlistEnded) e).entry().id())
                .as("the first (6) and then the third (2) fit in 8; the second (4) no longer does")
                .containsExactly(first.entry().id(), third.entry().id());
        assertThat(events)
                .filteredOn(BookingConfirmed.class::isInstance)
                .extracting(e -> ((BookingConfirmed) e).booking().id())
                .containsExactly(first.entry().id(), third.entry().id());
        assertThat(ledger.timeline("h200").maxReserved(h(1), h(3))).isEqualTo(8);
        assertThat(ledger.waitlist().waiting("h200"))
                .extracting(WaitlistEntry::id)
                .containsExactly(second.entry().id());
        assertThat(events.stream().filter(BookingConfirmed.class::isInstance).map(BookingEvent::requestId))
                .as("a waitlist booking answers no request")
                .containsOnlyNulls();
    }

    @Test
    void shouldNotBookWhenAChangeFreesNothingTheEntryNeeds() {
        confirmed(TEAM_A, 8, h(1), h(10));
        Booking other = confirmed(TEAM_A, 4, h(20), h(22));
        answer(waiting(TEAM_B, 4, h(1), h(3), h(2)), NOW);

        List<Decision> decisions = step(cancel(TEAM_A, other.id()), NOW.plusSeconds(60));

        assertThat(decisions).hasSize(1);
        assertThat(ledger.waitlist().size()).isOne();
    }

    @Test
    void shouldBookFromNowWhenANoShowReleaseFreesAnActiveWindow() {
        Booking held = confirmed(TEAM_A, 8, h(1), h(6));
        ledger.apply(decider.advance(ledger, h(1)));
        BookingWaitlisted w = (BookingWaitlisted) answer(bookNowWaiting(TEAM_B, 8, Duration.ofHours(1), h(2)), h(1));

        List<Decision> decisions = step(
                release(
                        Caller.system("no-show-release", "team-a"),
                        held.id(),
                        BookingCommand.ReleaseBooking.Reason.NO_SHOW,
                        null),
                h(1).plusSeconds(900));

        List<BookingEvent> events = events(decisions);
        assertThat(events).hasAtLeastOneElementOfType(BookingEvent.BookingActivated.class);
        Booking booked = ledger.booking(w.entry().id()).orElseThrow();
        assertThat(booked.start()).isEqualTo(h(1).plusSeconds(900));
        assertThat(WaitlistNotices.of(events))
                .singleElement()
                .isInstanceOfSatisfying(Notice.WaitlistBooked.class, n -> assertThat(n.bookingId())
                        .isEqualTo(w.entry().id()));
    }

    private static CreateBooking bookNowWaiting(Caller caller, int quantity, Duration length, Instant latest) {
        return new CreateBooking(
                UUID.randomUUID().toString(),
                null,
                caller,
                "h200",
                UUID.randomUUID().toString(),
                caller.tenant(),
                quantity,
                null,
                null,
                null,
                NOW,
                null,
                length,
                null,
                latest);
    }

    @Test
    void shouldExpireAtTheLatestStartWithANotice() {
        confirmed(TEAM_A, 8, h(1), h(10));
        ledger.apply(decider.advance(ledger, h(1)));
        BookingWaitlisted w = (BookingWaitlisted) answer(bookNowWaiting(TEAM_B, 2, Duration.ofHours(1), h(3)), h(1));

        assertThat(decider.advance(ledger, h(3).minusMillis(1)).events()).isEmpty();
        Decision expiry = decider.advance(ledger, h(3));
        ledger.apply(expiry);

        assertThat(expiry.events()).singleElement().isInstanceOfSatisfying(WaitlistEnded.class, e -> {
            assertThat(e.entry().id()).isEqualTo(w.entry().id());
            assertThat(e.entry().state()).isEqualTo(WaitlistEntry.State.EXPIRED);
        });
        assertThat(WaitlistNotices.of(expiry.events())).singleElement().isInstanceOf(Notice.WaitlistExpired.class);
        assertThat(ledger.waitlist().size()).isZero();
    }

    @Test
    void shouldCancelOnlyTheOwnersEntryAndHideItFromOthers() {
        confirmed(TEAM_A, 8, h(1), h(10));
        BookingWaitlisted w = (BookingWaitlisted) answer(waiting(TEAM_B, 2, h(1), h(2), h(3)), NOW);

        BookingEvent byOther = answer(cancel(TEAM_A, w.entry().id()), NOW);
        BookingEvent byOwner = answer(cancel(TEAM_B, w.entry().id()), NOW);

        assertThat(((BookingRejected) byOther).reason()).isEqualTo("NOT_FOUND");
        assertThat(((WaitlistEnded) byOwner).entry().state()).isEqualTo(WaitlistEntry.State.CANCELLED);
        assertThat(ledger.waitlist().size()).isZero();
    }

    @Test
    void shouldDecideTheSameAfterARebuildFromTheStores() {
        Booking big = confirmed(TEAM_A, 8, h(1), h(10));
        List<String> arrived = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            BookingWaitlisted w = (BookingWaitlisted)
                    answer(waiting(i % 2 == 0 ? TEAM_A : TEAM_B, 3, h(1), h(3), h(2)), NOW.plusMillis(5 - i));
            arrived.add(0, w.entry().id()); // decided at earlier instants one after another: the last is first
        }
        BookingLedger restored = new BookingLedger(bookings, POOLS, waiting).rebuild();

        Decision cancelled = decider.decide(cancel(TEAM_A, big.id()), restored, NOW.plusSeconds(5));
        restored.apply(cancelled);
        List<String> booked = decider.settleWaitlist(cancelled, restored, NOW.plusSeconds(5)).stream()
                .flatMap(d -> d.changes().stream())
                .map(Booking::id)
                .toList();

        assertThat(booked)
                .as("the first two in arrival order, 3 + 3 of 8")
                .containsExactlyElementsOf(arrived.subList(0, 2));
        assertThat(restored.waitlist().waiting("h200"))
                .extracting(WaitlistEntry::id)
                .containsExactlyElementsOf(arrived.subList(2, 5));
        assertThat(restored.timeline("h200").maxReserved(h(1), h(3))).isEqualTo(6);
    }
}
