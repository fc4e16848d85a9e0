package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.NOW;
import static io.gpuaas.booking.model.Fixtures.TEAM_A;
import static io.gpuaas.booking.model.Fixtures.TEAM_B;
import static io.gpuaas.booking.model.Fixtures.h;
import static io.gpuaas.booking.model.FlexibleFixtures.ONE_GPU;
import static io.gpuaas.booking.model.FlexibleFixtures.POOLS;
import static io.gpuaas.booking.model.FlexibleFixtures.create;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.placement.GpuLayout;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rebuilding the fleets from stored bookings: a conflict is reported, never dropped, and a running booking wins. */
class FlexibleRebuildTest {

    private final BookingDecider decider = new BookingDecider(POOLS, BookingPolicy.DEFAULT);

    private Booking stored(String id, String profile, BookingState state) {
        BookingLedger scratch = new BookingLedger(new InMemoryBookingRepository(), POOLS);
        Decision d = decider.decide(create(ONE_GPU, id, TEAM_A, profile, 1, h(1), h(3)), scratch, NOW);
        Booking b = ((BookingConfirmed) d.events().getFirst()).booking();
        return state == BookingState.ACTIVE ? b.withState(BookingState.ACTIVE, h(1)) : b;
    }

    @Test
    void shouldReportTheLaterBookingAndKeepTheRunningOneWhenTwoStoredBookingsHoldTheSameSlice() {
        InMemoryBookingRepository repository = new InMemoryBookingRepository();
        Booking waiting = stored("a-waiting", "3g.71gb", BookingState.CONFIRMED);
        Booking running = stored("z-running", "3g.71gb", BookingState.ACTIVE);
        assertThat(waiting.placement()).isEqualTo(running.placement());
        repository.save(waiting);
        repository.save(running);

        BookingLedger ledger = new BookingLedger(repository, POOLS).rebuild();

        assertThat(ledger.restoreRefusals()).singleElement().satisfies(r -> {
            assertThat(r.bookingId()).isEqualTo("a-waiting");
            assertThat(r.pool()).isEqualTo(ONE_GPU);
            assertThat(r.reason()).isEqualTo("NO_ROOM");
        });
        assertThat(ledger.fleet(ONE_GPU).orElseThrow().placementsOf("z-running"))
                .isPresent();
        assertThat(ledger.fleet(ONE_GPU).orElseThrow().placementsOf("a-waiting"))
                .isEmpty();
    }

    @Test
    void shouldReportAFlexibleBookingThatRecordsNoPlacement() {
        InMemoryBookingRepository repository = new InMemoryBookingRepository();
        Booking b = stored("bare", null, BookingState.CONFIRMED);
        repository.save(FlexibleDecisions.withPlacement(b, null));

        BookingLedger ledger = new BookingLedger(repository, POOLS).rebuild();

        assertThat(ledger.restoreRefusals())
                .extracting(BookingLedger.RestoreRefusal::reason)
                .containsExactly("NO_PLACEMENT");
    }

    @Test
    void shouldKeepTheRunPartOfAReleasedBookingOnTheFleetAfterARebuild() {
        BookingLedger live = new BookingLedger(new InMemoryBookingRepository(), POOLS);
        Decision d = decider.decide(create(ONE_GPU, "ended", TEAM_B, null, 1, NOW, h(3)), live, NOW);
        live.apply(d);
        live.apply(live.booking("ended").orElseThrow().withState(BookingState.RELEASED, h(1)));
        InMemoryBookingRepository copy = new InMemoryBookingRepository();
        copy.save(live.booking("ended").orElseThrow());

        BookingLedger rebuilt = new BookingLedger(copy, POOLS).rebuild();

        for (BookingLedger ledger : List.of(live, rebuilt)) {
            var fleet = ledger.fleet(ONE_GPU).orElseThrow();
            assertThat(fleet.layoutsAt(NOW).values()).containsExactly(new GpuLayout.Whole("ended"));
            assertThat(fleet.layoutsAt(h(1)).values()).containsExactly(new GpuLayout.Idle());
        }
        assertThat(live.booking("ended").orElseThrow().placement())
                .containsExactly(PlacedUnit.wholeGpu("gpu-node-5", 0));
    }
}
