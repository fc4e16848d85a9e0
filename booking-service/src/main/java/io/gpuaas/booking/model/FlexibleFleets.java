package io.gpuaas.booking.model;

import io.gpuaas.booking.placement.FleetPlacements;
import io.gpuaas.booking.placement.GpuAddress;
import io.gpuaas.booking.placement.PlacementOutcome;
import io.gpuaas.booking.placement.PlacementRequest;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.booking.placement.UnitPlacement;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One {@link FleetPlacements} per flexible pool of the catalog, holding the placements the bookings record: an index
 * derived from the bookings like the timelines, never a source of truth. A booking is on its fleet while it holds
 * capacity (CONFIRMED, ACTIVE) over its window, and once RELEASED over {@code [start, releasedAt)} (an end-now or
 * no-show shortens it, the time it ran stays taken); cancelled and completed ones leave.
 */
final class FlexibleFleets {

    private final PoolCatalog pools;
    private final Map<String, FleetPlacements> fleets = new TreeMap<>();

    FlexibleFleets(PoolCatalog pools) {
        this.pools = pools;
        clear();
    }

    /** Empties every fleet. */
    void clear() {
        fleets.clear();
        for (Pool pool : pools.pools()) {
            if (pool.flexible()) {
                fleets.put(pool.id(), new FleetPlacements(PoolUnits.geometry(pool), gpusOf(pool)));
            }
        }
    }

    Optional<FleetPlacements> of(String pool) {
        return Optional.ofNullable(fleets.get(pool));
    }

    Optional<Pool> pool(String id) {
        return pools.find(id);
    }

    /** Whether {@code booking} should hold units on a fleet but records no placement (none this decider writes). */
    boolean unplaced(Booking booking) {
        return fleets.containsKey(booking.pool())
                && booking.placement() == null
                && heldUntil(booking).isPresent();
    }

    /** Whether {@code booking} belongs on a fleet in its current state. */
    boolean placed(Booking booking) {
        return fleets.containsKey(booking.pool())
                && booking.placement() != null
                && heldUntil(booking).isPresent();
    }

    /**
     * Puts {@code booking} on its pool's fleet at the units it records, if it belongs there; empty when it was put or
     * does not belong, else the refusal.
     */
    Optional<PlacementOutcome.Refused> index(Booking booking) {
        if (!placed(booking)) {
            return Optional.empty();
        }
        Pool pool = pools.find(booking.pool()).orElseThrow();
        PlacementRequest request = request(booking, pool, heldUntil(booking).orElseThrow());
        PlacementOutcome outcome = fleets.get(booking.pool()).restore(request, units(booking.placement()));
        return outcome instanceof PlacementOutcome.Refused refused ? Optional.of(refused) : Optional.empty();
    }

    /** Takes {@code booking} off its fleet, if it is on one. */
    void unindex(Booking booking) {
        FleetPlacements fleet = fleets.get(booking.pool());
        if (fleet != null) {
            fleet.release(booking.id());
        }
    }

    /** The end up to which a booking in this state holds its units, if it holds them at all. */
    private static Optional<Instant> heldUntil(Booking booking) {
        if (booking.state().takesCapacity()) {
            return Optional.of(booking.end());
        }
        // A release keeps the window as booked; updatedAt is when its units came free.
        if (booking.state() == BookingState.RELEASED
                && booking.updatedAt().isAfter(booking.start())
                && booking.updatedAt().isBefore(booking.end())) {
            return Optional.of(booking.updatedAt());
        }
        return Optional.empty();
    }

    /** The placement request a booking of {@code pool} stands for, ending at {@code end}. */
    static PlacementRequest request(Booking booking, Pool pool, Instant end) {
        return new PlacementRequest(
                booking.id(), kindOf(pool.profileOf(booking.resource())), booking.quantity(), booking.start(), end);
    }

    static UnitKind kindOf(String profile) {
        return profile == null ? UnitKind.whole() : UnitKind.mig(profile);
    }

    static List<UnitPlacement> units(List<PlacedUnit> placement) {
        List<UnitPlacement> units = new ArrayList<>(placement.size());
        for (PlacedUnit p : placement) {
            GpuAddress gpu = new GpuAddress(p.node(), p.gpu());
            units.add(
                    p.whole()
                            ? new UnitPlacement(gpu, UnitKind.whole(), 0)
                            : new UnitPlacement(gpu, UnitKind.mig(p.profile()), p.start()));
        }
        return units;
    }

    static List<PlacedUnit> placed(List<UnitPlacement> units) {
        List<PlacedUnit> placement = new ArrayList<>(units.size());
        for (UnitPlacement u : units) {
            placement.add(
                    switch (u.kind()) {
                        case UnitKind.WholeGpu whole ->
                            PlacedUnit.wholeGpu(u.gpu().node(), u.gpu().index());
                        case UnitKind.Mig mig ->
                            PlacedUnit.mig(u.gpu().node(), u.gpu().index(), mig.profile(), u.startSlice());
                    });
        }
        return placement;
    }

    private static List<GpuAddress> gpusOf(Pool pool) {
        List<GpuAddress> gpus = new ArrayList<>();
        for (PoolNode node : pool.nodes()) {
            for (int i = 0; i < node.gpus(); i++) {
                gpus.add(new GpuAddress(node.name(), i));
            }
        }
        return gpus;
    }
}
