package io.gpuaas.quota.mig;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pure layout step: per node of a flexible pool, the layout its bookings need next, per GPU, and whether it may
 * be changed now. No clock, no I/O.
 *
 * <p>Per GPU: the bookings holding capacity (CONFIRMED or ACTIVE) with a unit on it are <em>active</em> when their
 * window holds {@code now}, <em>upcoming</em> when it starts within {@code lead} after {@code now}. The GPU needs the
 * instances of its active units plus, in order of start, those of each upcoming booking that still fit beside them
 * (geometry valid, never a whole GPU beside a MIG instance). It is left as it is when its current layout already
 * covers that (the same instances at the same slices; extra instances do no harm), or when nothing needs it. Otherwise
 * it changes only if
 * <ul>
 *   <li>no active booking has a unit on it (a MIG reconfiguration destroys every instance of the GPU), and</li>
 *   <li>no running pod on the node requests a resource the GPU currently offers. A pod's request does not say which
 *       GPU serves it, so a pod holding {@code nvidia.com/mig-1g.18gb} blocks every GPU of the node that currently
 *       has a 1g.18gb instance (conservative: the device plugin may have given it any of them).</li>
 * </ul>
 * A GPU that may not change keeps its current layout and is reported {@link Blocked} with the bookings that wait for it.
 */
public final class MigLayoutPlanner {

    /** What the applier saw on a node: its current layout (null when it is not gpuaas's to lay out). */
    public record Observed(NodeLayout current, Set<String> resourcesInUse) {}

    /** A GPU whose needed layout cannot be applied now, and the bookings that need it. */
    public record Blocked(int gpu, String reason, List<Booking> bookings) {}

    /**
     * One node's decision.
     *
     * @param current what it runs (as gpuaas last laid it out)
     * @param target  what to ask the MIG manager for; equal to {@code current} when nothing changes
     * @param needing bookings active now or starting within the lead whose units on this node {@code target}
     *                provides (they wait for it to be in force)
     * @param blocked GPUs whose needed layout is held back
     */
    public record Decision(
            String node, NodeLayout current, NodeLayout target, List<Booking> needing, List<Blocked> blocked) {
        public boolean changes() {
            return !target.equals(current);
        }
    }

    private MigLayoutPlanner() {}

    /** The decision for every node of {@code pool} that {@code observed} knows and gpuaas lays out. */
    public static Map<String, Decision> plan(
            Pool pool,
            GpuGeometry geometry,
            Collection<Booking> bookings,
            Instant now,
            Duration lead,
            Map<String, Observed> observed) {
        Map<String, Map<Integer, List<Booking>>> byGpu = bookingsByGpu(pool, bookings, now, lead);
        Map<String, Decision> decisions = new LinkedHashMap<>();
        for (PoolNode node : pool.nodes()) {
            Observed seen = observed.get(node.name());
            if (seen == null || seen.current() == null) {
                continue;
            }
            decisions.put(node.name(), planNode(node, geometry, byGpu.getOrDefault(node.name(), Map.of()), now, seen));
        }
        return decisions;
    }

    private static Decision planNode(
            PoolNode node, GpuGeometry geometry, Map<Integer, List<Booking>> byGpu, Instant now, Observed seen) {
        Map<Integer, GpuLayout> changes = new TreeMap<>();
        List<Blocked> blocked = new ArrayList<>();
        List<Booking> needing = new ArrayList<>();
        for (int gpu = 0; gpu < node.gpus(); gpu++) {
            GpuLayout current = seen.current().gpus().getOrDefault(gpu, GpuLayout.WHOLE);
            List<Booking> onGpu = byGpu.getOrDefault(gpu, List.of());
            if (onGpu.isEmpty()) {
                continue; // nothing needs it: left as it is
            }
            Needed needed = needed(node.name(), gpu, geometry, onGpu);
            if (needed.served().isEmpty()) {
                continue; // placements that fit no layout: a decider's error, never laid out
            }
            addNew(needing, needed.served());
            if (current.covers(needed.layout())) {
                continue;
            }
            Optional<String> hold = hold(node.name(), gpu, current, onGpu, now, seen.resourcesInUse());
            if (hold.isPresent()) {
                blocked.add(new Blocked(gpu, hold.get(), needed.served()));
            } else {
                changes.put(gpu, needed.layout());
            }
        }
        return new Decision(node.name(), seen.current(), seen.current().with(changes), needing, blocked);
    }

    private record Needed(GpuLayout layout, List<Booking> served) {}

    /** Active units first, then each upcoming booking by start while its units still fit. */
    private static Needed needed(String node, int gpu, GpuGeometry geometry, List<Booking> onGpu) {
        List<PlacedUnit> units = new ArrayList<>();
        List<Booking> served = new ArrayList<>();
        for (Booking booking : onGpu) {
            List<PlacedUnit> mine = unitsOn(booking, node, gpu);
            List<PlacedUnit> tried = new ArrayList<>(units);
            tried.addAll(mine);
            Optional<GpuLayout> layout = layoutOf(tried, geometry);
            // A booking that does not fit beside earlier ones waits for them to end (it starts later, or its
            // placement was wrong: no decider should make one).
            if (layout.isPresent()) {
                units = tried;
                served.add(booking);
            }
        }
        return new Needed(layoutOf(units, geometry).orElse(GpuLayout.WHOLE), served);
    }

    static Optional<GpuLayout> layoutOf(List<PlacedUnit> units, GpuGeometry geometry) {
        if (units.isEmpty()) {
            return Optional.empty();
        }
        long whole = units.stream().filter(PlacedUnit::whole).count();
        if (whole > 0) {
            return whole == 1 && units.size() == 1 ? Optional.of(GpuLayout.WHOLE) : Optional.empty();
        }
        GpuLayout layout = GpuLayout.mig(
                units.stream().map(u -> MigPlacement.of(u.profile(), u.start())).toList());
        return layout.validOn(geometry) ? Optional.of(layout) : Optional.empty();
    }

    /** Why the GPU may not change now, if something holds it. */
    private static Optional<String> hold(
            String node, int gpu, GpuLayout current, List<Booking> onGpu, Instant now, Set<String> inUse) {
        for (Booking booking : onGpu) {
            if (booking.activeAt(now)) {
                // The reason reaches the waiting booking's team (notice, webhook, Kubernetes Event): it never names
                // the holding booking or its window, which may be another tenant's.
                return Optional.of("an active booking holds GPU " + gpu + " of " + node);
            }
        }
        for (String resource : current.resources()) {
            if (inUse.contains(resource)) {
                return Optional.of(
                        "a running pod on " + node + " holds " + resource + ", which GPU " + gpu + " offers");
            }
        }
        return Optional.empty();
    }

    /** Per node and GPU, the bookings active at {@code now} or starting within {@code lead}, by start. */
    private static Map<String, Map<Integer, List<Booking>>> bookingsByGpu(
            Pool pool, Collection<Booking> bookings, Instant now, Duration lead) {
        Instant horizon = now.plus(lead);
        Map<String, Map<Integer, List<Booking>>> byGpu = new TreeMap<>();
        bookings.stream()
                .filter(b -> pool.id().equals(b.pool())
                        && b.placement() != null
                        && b.state().holdsCapacity())
                .filter(b -> b.end().isAfter(now) && !b.start().isAfter(horizon))
                .sorted(Comparator.comparing(Booking::start).thenComparing(Booking::id))
                .forEach(b -> b.placement().forEach(u -> {
                    List<Booking> list = byGpu.computeIfAbsent(u.node(), n -> new TreeMap<>())
                            .computeIfAbsent(u.gpu(), g -> new ArrayList<>());
                    if (!list.contains(b)) {
                        list.add(b);
                    }
                }));
        return byGpu;
    }

    private static List<PlacedUnit> unitsOn(Booking booking, String node, int gpu) {
        return booking.placement().stream()
                .filter(u -> u.node().equals(node) && u.gpu() == gpu)
                .toList();
    }

    private static void addNew(List<Booking> into, List<Booking> more) {
        more.stream().filter(b -> !into.contains(b)).forEach(into::add);
    }
}
