package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.POOLS;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.bookNow;
import static io.gpuaas.booking.model.Fixtures.change;
import static io.gpuaas.booking.model.Fixtures.create;
import static io.gpuaas.booking.model.Fixtures.extendFromNow;
import static io.gpuaas.booking.model.Fixtures.release;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking.Reason;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingExtended;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.booking.BookingState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Book now, extend from now: windows that start, or are measured from, the decision's own instant. */
class BookNowDecisionTest {

    /** The example: 13:53, when the earliest aligned start is 14:00. */
    private static final Instant AT_1353 = Instant.parse("2030-01-01T13:53:27.125Z");

    private static Instant at(String hhmm) {
        return Instant.parse("2030-01-01T" + hhmm + ":00Z");
    }

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());

    private Decision decide(BookingCommand command, Instant now) {
        Decision decision = decider.decide(command, ledger, now);
        ledger.apply(decision);
        return decision;
    }

    private String rejection(BookingCommand command, Instant now) {
        return ((BookingRejected) decide(command, now).events().getFirst()).reason();
    }

    @Test
    void shouldStartAtTheDecisionAndRoundTheEndUpWhenBookedNowForADuration() {
        BookingCommand command = bookNow(TEAM_A, null, 2, null, Duration.ofHours(2));

        Decision decision = decide(command, AT_1353);

        assertThat(decision.events())
                .hasExactlyElementsOfTypes(BookingConfirmed.class, BookingActivated.class)
                .extracting(BookingEvent::requestId)
                .containsOnly(command.requestId());
        Booking active = ((BookingActivated) decision.events().getLast()).booking();
        assertThat(active.state()).isEqualTo(BookingState.ACTIVE);
        assertThat(active.start()).isEqualTo(AT_1353);
        assertThat(active.end()).isEqualTo(at("16:00"));
        assertThat(decision.changes()).containsExactly(active);
        assertThat(ledger.timeline("h200").reservedAt(AT_1353)).isEqualTo(2);
        assertThat(decider.advance(ledger, AT_1353.plusMillis(200)).events())
                .as("the clock does not activate it again")
                .isEmpty();
    }

    @Test
    void shouldKeepAnAlignedEndWhenNowPlusTheDurationIsAlreadyAligned() {
        Instant quarterPast = at("13:15");

        Decision decision = decide(bookNow(TEAM_A, null, 1, null, Duration.ofMinutes(45)), quarterPast);

        assertThat(((BookingActivated) decision.events().getLast()).booking().end())
                .isEqualTo(at("14:00"));
    }

    @Test
    void shouldTakeAGivenAlignedEndAndRefuseAnUnalignedOneWhenBookedNow() {
        Decision toTwo = decide(bookNow(TEAM_A, null, 1, at("14:00"), null), AT_1353);

        assertThat(((BookingActivated) toTwo.events().getLast()).booking().end())
                .isEqualTo(at("14:00"));
        assertThat(rejection(bookNow(TEAM_A, null, 1, at("14:05"), null), AT_1353))
                .isEqualTo("POLICY_ALIGNMENT");
        assertThat(rejection(bookNow(TEAM_A, null, 1, at("13:45"), null), AT_1353))
                .isEqualTo("INVALID_WINDOW");
    }

    @Test
    void shouldRefuseWhenBothOrNeitherOfEndAndDurationAreGivenOrTheDurationIsOutOfBounds() {
        assertThat(rejection(bookNow(TEAM_A, null, 1, at("16:00"), Duration.ofHours(2)), AT_1353))
                .isEqualTo("INVALID_WINDOW");
        assertThat(rejection(bookNow(TEAM_A, null, 1, null, null), AT_1353)).isEqualTo("INVALID_WINDOW");
        assertThat(rejection(bookNow(TEAM_A, null, 1, null, Duration.ZERO), AT_1353))
                .isEqualTo("INVALID_WINDOW");
        assertThat(rejection(bookNow(TEAM_A, null, 1, null, Duration.ofDays(15)), AT_1353))
                .isEqualTo("POLICY_MAX_DURATION");
        assertThat(ledger.timeline("h200").reservedAt(AT_1353)).isZero();
    }

    @Test
    void shouldAllowTheLongestBookingWhenBookedNowOffTheAlignment() {
        Decision decision = decide(bookNow(TEAM_A, null, 1, null, BookingPolicy.DEFAULT.maxDuration()), AT_1353);

        assertThat(((BookingActivated) decision.events().getLast()).booking().end())
                .isEqualTo(at("14:00").plus(Duration.ofDays(14)));
    }

    @Test
    void shouldRejectABookNowWhenThePoolIsFullBeforeTheNextSlot() {
        decide(create(TEAM_B, null, 8, at("13:45"), at("14:00")), at("13:40"));

        BookingRejected refused = (BookingRejected) decide(bookNow(TEAM_A, null, 1, null, Duration.ofHours(1)), AT_1353)
                .events()
                .getFirst();

        assertThat(refused.reason()).isEqualTo("CAPACITY");
        assertThat(refused.earliestStart()).isEqualTo(at("14:00"));
        assertThat(ledger.timeline("h200").reservedAt(AT_1353)).isEqualTo(8);
    }

    @Test
    void shouldReplayTheSameActiveBookingWhenTheSameKeyComesBackLater() {
        Booking first = ((BookingActivated) decide(bookNow(TEAM_A, "now-1", 2, null, Duration.ofHours(1)), AT_1353)
                        .events()
                        .getLast())
                .booking();

        Decision again = decide(bookNow(TEAM_A, "now-1", 2, null, Duration.ofHours(1)), AT_1353.plusSeconds(90));

        assertThat(again.events()).singleElement().isInstanceOf(BookingActivated.class);
        assertThat(((BookingActivated) again.events().getFirst()).booking()).isEqualTo(first);
        assertThat(ledger.timeline("h200").reservedAt(AT_1353.plusSeconds(90))).isEqualTo(2);
    }

    @Test
    void shouldActivateAtOnceWhenAGivenStartHasJustPassed() {
        Decision decision = decide(
                create(TEAM_A, null, 1, at("14:00"), at("15:00")), at("14:00").plusSeconds(20));

        assertThat(decision.events()).hasExactlyElementsOfTypes(BookingConfirmed.class, BookingActivated.class);
    }

    @Test
    void shouldExtendFromNowAndRoundUpWhenAnActiveBookingGetsADuration() {
        Booking active = ((BookingActivated) decide(bookNow(TEAM_A, null, 2, null, Duration.ofMinutes(30)), AT_1353)
                        .events()
                        .getLast())
                .booking();
        Instant later = Instant.parse("2030-01-01T14:10:05Z");

        BookingExtended extended =
                (BookingExtended) decide(extendFromNow(TEAM_A, active.id(), active.start(), Duration.ofHours(1)), later)
                        .events()
                        .getFirst();

        assertThat(extended.booking().end()).isEqualTo(at("15:15"));
        assertThat(extended.booking().start()).as("the unaligned start is kept").isEqualTo(AT_1353);
        assertThat(ledger.timeline("h200").reservedAt(at("15:00"))).isEqualTo(2);
    }

    @Test
    void shouldRefuseToExtendFromNowWhenTheBookingHasNotStartedOrTheExtensionDoesNotFit() {
        Booking upcoming = ((BookingConfirmed) decide(create(TEAM_A, null, 1, at("15:00"), at("16:00")), AT_1353)
                        .events()
                        .getFirst())
                .booking();
        Booking active = ((BookingActivated) decide(bookNow(TEAM_A, null, 4, null, Duration.ofMinutes(30)), AT_1353)
                        .events()
                        .getLast())
                .booking();
        decide(create(TEAM_B, null, 5, at("14:30"), at("15:00")), AT_1353);

        assertThat(rejection(extendFromNow(TEAM_A, upcoming.id(), upcoming.start(), Duration.ofHours(1)), AT_1353))
                .isEqualTo("INVALID_STATE");
        assertThat(rejection(extendFromNow(TEAM_A, active.id(), active.start(), Duration.ofHours(1)), AT_1353))
                .isEqualTo("CAPACITY");
        assertThat(ledger.booking(active.id()).orElseThrow().end()).isEqualTo(at("14:30"));
    }

    @Test
    void shouldMoveTheEndAndReleaseABookingBookedNowWhenItsStartIsOffTheAlignment() {
        Booking active = ((BookingActivated) decide(bookNow(TEAM_A, null, 1, null, Duration.ofHours(1)), AT_1353)
                        .events()
                        .getLast())
                .booking();

        BookingEvent moved = decide(change(TEAM_A, active.id(), active.start(), at("16:00")), AT_1353)
                .events()
                .getFirst();
        BookingEvent released = decide(release(TEAM_A, active.id(), Reason.END_NOW, null), at("14:20"))
                .events()
                .getFirst();

        assertThat(moved).isInstanceOf(BookingExtended.class);
        assertThat(released).isInstanceOf(BookingReleased.class);
        assertThat(List.of(ledger.timeline("h200").reservedAt(at("14:30")))).containsExactly(0);
    }
}
