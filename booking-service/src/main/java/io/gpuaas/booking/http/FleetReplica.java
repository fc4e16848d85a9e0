package io.gpuaas.booking.http;

import io.gpuaas.booking.placement.FleetPlacements;
import io.gpuaas.booking.placement.GpuAddress;
import io.gpuaas.booking.placement.GpuLayout;
import io.gpuaas.booking.placement.PlacementOutcome;
import io.gpuaas.booking.placement.PlacementRequest;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.booking.placement.UnitPlacement;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read side's copy of one flexible pool's placements: a {@link FleetPlacements} holding every CONFIRMED or ACTIVE
 * booking of the pool on exactly the units its latest state records ({@code restore}, never the placement rule). A
 * newer version of a booking replaces the older: its units are released, then the new ones restored. States may
 * arrive in any order across bookings, so a booking moved to make room for another can arrive after that other one;
 * a restore refused because its units are still held waits and is tried again after every later change.
 *
 * <p>Deterministic: a batch of states is applied in (start, id) order. Not thread-safe: {@link FlexiblePools} guards
 * it.
 */
final class FleetReplica {

    private static final Logger LOG = LoggerFactory.getLogger(FleetReplica.class);

    private static final Comparator<Booking> ORDER =
            Comparator.comparing(Booking::start).thenComparing(Booking::id);

    private final Pool pool;
    private final FleetPlacements fleet;
    private final Map<String, Long> versions = new HashMap<>();
    private final TreeMap<String, Booking> placed = new TreeMap<>();
    private final TreeMap<String, Booking> waiting = new TreeMap<>();

    /** An empty replica of {@code pool}, which must be flexible. */
    FleetReplica(Pool pool) {
        if (!pool.flexible()) {
            throw new IllegalArgumentException("pool " + pool.id() + " is not flexible");
        }
        this.pool = pool;
        List<GpuAddress> gpus = new ArrayList<>();
        for (PoolNode node : pool.nodes()) {
            for (int i = 0; i < node.gpus(); i++) {
                gpus.add(new GpuAddress(node.name(), i));
            }
        }
        this.fleet = new FleetPlacements(
                GpuGeometryCatalog.shipped().forModel(pool.gpuModel()).orElseThrow(), gpus);
    }

    /** Applies every state of this pool in {@code states} that is newer than the one applied, in (start, id) order. */
    void applyAll(Collection<Booking> states) {
        List<Booking> newer = states.stream()
                .filter(b -> pool.id().equals(b.pool()))
                .filter(b -> b.version() > versions.getOrDefault(b.id(), 0L))
                .sorted(ORDER)
                .toList();
        newer.forEach(this::replace);
        if (!newer.isEmpty()) {
            retryWaiting();
        }
    }

    /** Applies one state if it is newer than the one applied. */
    void apply(Booking state) {
        applyAll(List.of(state));
    }

    private void replace(Booking state) {
        versions.put(state.id(), state.version());
        waiting.remove(state.id());
        if (placed.remove(state.id()) != null) {
            fleet.release(state.id());
        }
        if (holdsUnits(state)) {
            restore(state);
        }
    }

    private void retryWaiting() {
        boolean progress = true;
        while (progress && !waiting.isEmpty()) {
            progress = false;
            for (Booking b : List.copyOf(waiting.values())) {
                waiting.remove(b.id());
                progress |= restore(b);
            }
        }
    }

    private boolean restore(Booking state) {
        PlacementOutcome outcome;
        try {
            outcome = fleet.restore(request(state), units(state));
        } catch (IllegalArgumentException e) {
            LOG.warn("booking {} of pool {}: placement not usable: {}", state.id(), pool.id(), e.getMessage());
            return false;
        }
        return switch (outcome) {
            case PlacementOutcome.Placed p -> {
                placed.put(state.id(), state);
                yield true;
            }
            case PlacementOutcome.Refused r -> {
                waiting.put(state.id(), state);
                yield false;
            }
        };
    }

    private boolean holdsUnits(Booking b) {
        return b.state().takesCapacity()
                && b.placement() != null
                && !b.placement().isEmpty()
                && b.start().isBefore(b.end());
    }

    /** The kind a booking of this pool books: its resource's MIG profile, or whole GPUs. */
    UnitKind kindOf(Booking b) {
        String profile = pool.profileOf(b.resource());
        return profile == null ? UnitKind.whole() : UnitKind.mig(profile);
    }

    private PlacementRequest request(Booking b) {
        return new PlacementRequest(b.id(), kindOf(b), b.quantity(), b.start(), b.end());
    }

    private List<UnitPlacement> units(Booking b) {
        UnitKind kind = kindOf(b);
        return b.placement().stream().map(u -> unit(u, kind)).toList();
    }

    private static UnitPlacement unit(PlacedUnit u, UnitKind kind) {
        UnitKind own = u.whole() ? UnitKind.whole() : UnitKind.mig(u.profile());
        if (!own.equals(kind)) {
            throw new IllegalArgumentException("a unit of " + own + " in a booking of " + kind);
        }
        return new UnitPlacement(new GpuAddress(u.node(), u.gpu()), kind, u.whole() ? 0 : u.start());
    }

    Pool pool() {
        return pool;
    }

    List<GpuAddress> gpus() {
        return fleet.gpus();
    }

    /** How many more units of {@code kind} fit over {@code [start, end)}. */
    int unitsThatFit(UnitKind kind, Instant start, Instant end) {
        return fleet.unitsThatFit(kind, start, end);
    }

    /** The earliest start in {@code [from, horizon]} at which {@code quantity} units fit for {@code duration}. */
    Optional<Instant> earliestStart(UnitKind kind, int quantity, Duration duration, Instant from, Instant horizon) {
        return fleet.earliestStart(kind, quantity, duration, from, horizon);
    }

    /** The placed bookings whose window meets {@code [from, to)}, by start then id. */
    List<Booking> placedDuring(Instant from, Instant to) {
        return placed.values().stream()
                .filter(b -> b.start().isBefore(to) && b.end().isAfter(from))
                .sorted(ORDER)
                .toList();
    }

    /** Bookings whose latest state holds units but could not be restored (their units are held by another). */
    List<String> unplaced() {
        return List.copyOf(waiting.keySet());
    }

    /** {@code from} and every start or end of a placed booking inside {@code (from, to)}, in order. */
    List<Instant> changePoints(Instant from, Instant to) {
        TreeSet<Instant> points = new TreeSet<>();
        points.add(from);
        for (Booking b : placed.values()) {
            for (Instant t : List.of(b.start(), b.end())) {
                if (t.isAfter(from) && t.isBefore(to)) {
                    points.add(t);
                }
            }
        }
        return List.copyOf(points);
    }

    /** What each GPU runs at {@code t}, in GPU order. */
    Map<GpuAddress, GpuLayout> layoutsAt(Instant t) {
        return fleet.layoutsAt(t);
    }
}
