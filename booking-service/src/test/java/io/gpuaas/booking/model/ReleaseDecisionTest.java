package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.ADMIN;
import static io.gpuaas.booking.model.Fixtures.POOLS;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.create;
import static io.gpuaas.booking.model.Fixtures.h;
import static io.gpuaas.booking.model.Fixtures.release;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking.Reason;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Releasing an active booking: ended early by its owner or an admin, or released as a no-show by the system. */
class ReleaseDecisionTest {

    private static final Instant MIDWAY = h(2);

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);
    private final BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());

    /** A booking of {@code units} on h200 over [h1, h3), activated by the clock at h1. */
    private Booking active(Caller owner, int units) {
        Decision confirmed = decider.decide(create(owner, null, units, h(1), h(3)), ledger, Fixtures.NOW);
        ledger.apply(confirmed);
        ledger.apply(decider.advance(ledger, h(1)));
        return ledger.booking(((BookingConfirmed) confirmed.events().getFirst())
                        .booking()
                        .id())
                .orElseThrow();
    }

    private BookingEvent decide(io.gpuaas.events.booking.BookingCommand command, Instant at) {
        Decision decision = decider.decide(command, ledger, at);
        ledger.apply(decision);
        return decision.events().getFirst();
    }

    @Test
    void shouldFreeTheRestOfTheWindowWhenTheOwnerEndsAnActiveBookingEarly() {
        Booking booking = active(TEAM_A, 8);

        BookingReleased released =
                (BookingReleased) decide(release(TEAM_A, booking.id(), Reason.END_NOW, null), MIDWAY);

        assertThat(released.reason()).isEqualTo(BookingReleased.Reason.ENDED_EARLY);
        assertThat(released.releasedAt()).isEqualTo(MIDWAY);
        assertThat(released.booking().state()).isEqualTo(BookingState.RELEASED);
        assertThat(released.booking().end()).as("the window stays as booked").isEqualTo(h(3));
        assertThat(released.booking().updatedAt()).isEqualTo(MIDWAY);
        assertThat(ledger.timeline("h200").reservedAt(MIDWAY)).isZero();
        assertThat(decide(create(TEAM_B, null, 8, MIDWAY, h(3)), MIDWAY)).isInstanceOf(BookingConfirmed.class);
        assertThat(decider.advance(ledger, h(3)).events())
                .as("a released booking never completes")
                .extracting(BookingEvent::bookingId)
                .doesNotContain(booking.id());
    }

    @Test
    void shouldLetAnAdminEndAnotherTenantsBookingButHideItFromOtherTenants() {
        Booking booking = active(TEAM_A, 2);

        BookingEvent byOther = decide(release(TEAM_B, booking.id(), Reason.END_NOW, null), MIDWAY);
        BookingEvent byAdmin = decide(release(ADMIN, booking.id(), Reason.END_NOW, null), MIDWAY);

        assertThat(((BookingRejected) byOther).reason()).isEqualTo("NOT_FOUND");
        assertThat(byAdmin).isInstanceOf(BookingReleased.class);
    }

    @Test
    void shouldRefuseToReleaseWhenTheBookingHasNotStartedOrIsOver() {
        Booking upcoming = ((BookingConfirmed) decide(create(TEAM_A, null, 1, h(5), h(6)), Fixtures.NOW)).booking();
        Booking released = active(TEAM_A, 1);
        decide(release(TEAM_A, released.id(), Reason.END_NOW, null), MIDWAY);

        BookingEvent early = decide(release(TEAM_A, upcoming.id(), Reason.END_NOW, null), MIDWAY);
        BookingEvent twice = decide(release(TEAM_A, released.id(), Reason.END_NOW, null), MIDWAY);

        assertThat(((BookingRejected) early).reason()).isEqualTo("INVALID_STATE");
        assertThat(((BookingRejected) early).message()).contains("CONFIRMED");
        assertThat(((BookingRejected) twice).reason()).isEqualTo("INVALID_STATE");
        assertThat(ledger.timeline("h200").reservedAt(h(5))).isEqualTo(1);
    }

    @Test
    void shouldTakeANoShowOnlyFromTheSystemWhenAnyoneElseSendsOne() {
        Booking booking = active(TEAM_A, 3);

        BookingEvent byOwner = decide(release(TEAM_A, booking.id(), Reason.NO_SHOW, null), MIDWAY);
        BookingEvent byAdmin = decide(release(ADMIN, booking.id(), Reason.NO_SHOW, null), MIDWAY);
        BookingEvent bySystem =
                decide(release(Caller.system("no-show-release", "team-a"), booking.id(), Reason.NO_SHOW, null), MIDWAY);

        assertThat(((BookingRejected) byOwner).reason()).isEqualTo("NOT_PERMITTED");
        assertThat(((BookingRejected) byAdmin).reason()).isEqualTo("NOT_PERMITTED");
        assertThat(((BookingReleased) bySystem).reason()).isEqualTo(BookingReleased.Reason.NO_SHOW);
        assertThat(ledger.timeline("h200").reservedAt(MIDWAY)).isZero();
    }

    @Test
    void shouldKeepTheSystemsIdempotencyKeysApartWhenATenantUsedTheSameKey() {
        Booking booking = active(TEAM_A, 1);
        Booking other = active(TEAM_A, 1);
        String key = "no-show/" + booking.id();
        decide(release(TEAM_A, other.id(), Reason.END_NOW, key), MIDWAY);

        BookingEvent bySystem =
                decide(release(Caller.system("no-show-release", "team-a"), booking.id(), Reason.NO_SHOW, key), MIDWAY);

        assertThat(bySystem).isInstanceOf(BookingReleased.class);
        assertThat(bySystem.bookingId()).isEqualTo(booking.id());
    }

    @Test
    void shouldReplayTheReleaseWhenTheSameKeyAndRequestRepeat() {
        Booking booking = active(TEAM_A, 1);
        BookingReleased first =
                (BookingReleased) decide(release(TEAM_A, booking.id(), Reason.END_NOW, "end-1"), MIDWAY);

        BookingEvent again = decide(release(TEAM_A, booking.id(), Reason.END_NOW, "end-1"), h(2).plusSeconds(60));

        assertThat(again).isInstanceOf(BookingReleased.class);
        assertThat(((BookingReleased) again).releasedAt()).isEqualTo(first.releasedAt());
        assertThat(((BookingReleased) again).booking()).isEqualTo(first.booking());
    }
}
