package io.gpuaas.booking.http;

import io.gpuaas.booking.http.FleetAnswers.Cell;
import io.gpuaas.booking.http.FleetAnswers.GpuState;
import io.gpuaas.booking.http.FleetAnswers.Instance;
import io.gpuaas.booking.http.FleetAnswers.LayoutChange;
import io.gpuaas.booking.http.FleetAnswers.Layouts;
import io.gpuaas.booking.http.FleetAnswers.PlacedBooking;
import io.gpuaas.booking.http.FleetAnswers.Placements;
import io.gpuaas.booking.http.FleetAnswers.ProfileAvailability;
import io.gpuaas.booking.http.FleetAnswers.ProfileRow;
import io.gpuaas.booking.http.FleetAnswers.Unit;
import io.gpuaas.booking.placement.GpuAddress;
import io.gpuaas.booking.placement.GpuLayout;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.events.pool.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds the answers about one flexible pool from its {@link FleetReplica}; pure, no clock. */
final class FleetReports {

    /** At most this many layout change points in one answer. */
    static final int MAX_CHANGES = 500;

    private FleetReports() {}

    /** Whole GPUs first, then each bookable profile in the catalog's order. */
    static List<String> rowProfiles(Pool pool) {
        List<String> profiles = new ArrayList<>();
        profiles.add(null);
        profiles.addAll(pool.bookableProfiles());
        return profiles;
    }

    static UnitKind kind(String profile) {
        return profile == null ? UnitKind.whole() : UnitKind.mig(profile);
    }

    static ProfileAvailability availability(FleetReplica fleet, Instant from, Instant to, Duration step) {
        Pool pool = fleet.pool();
        List<ProfileRow> rows = new ArrayList<>();
        for (String profile : rowProfiles(pool)) {
            List<Cell> cells = new ArrayList<>();
            for (Instant s = from; s.isBefore(to); s = s.plus(step)) {
                Instant e = s.plus(step).isAfter(to) ? to : s.plus(step);
                cells.add(new Cell(s, e, fleet.unitsThatFit(kind(profile), s, e)));
            }
            rows.add(new ProfileRow(profile, pool.resourceFor(profile), cells));
        }
        return new ProfileAvailability(
                pool.id(), pool.gpuModel(), fleet.gpus().size(), from, to, step, List.copyOf(rows));
    }

    static Placements placements(FleetReplica fleet, Instant from, Instant to) {
        List<PlacedBooking> bookings = fleet.placedDuring(from, to).stream()
                .map(b -> placed(fleet.pool(), b))
                .toList();
        return new Placements(fleet.pool().id(), from, to, bookings, fleet.unplaced());
    }

    private static PlacedBooking placed(Pool pool, Booking b) {
        List<Unit> units = b.placement().stream()
                .map(u -> new Unit(u.node(), u.gpu(), u.profile(), u.start()))
                .toList();
        return new PlacedBooking(
                b.id(),
                b.tenant(),
                b.namespace(),
                pool.profileOf(b.resource()),
                b.quantity(),
                b.state().name(),
                b.start(),
                b.end(),
                units);
    }

    /** A MIG instance's place: which bookings of the range recorded a unit there (at different times). */
    private record Slot(String node, int gpu, String profile, int start) {}

    /** Every GPU's layout at {@code from} and at each instant in {@code (from, to)} where one of them changes. */
    static Layouts layouts(FleetReplica fleet, Instant from, Instant to) {
        List<Instant> points = fleet.changePoints(from, to);
        Map<Slot, List<Booking>> holders = new HashMap<>();
        for (Booking b : fleet.placedDuring(from, to)) {
            b.placement().stream().filter(u -> !u.whole()).forEach(u -> holders.computeIfAbsent(
                            new Slot(u.node(), u.gpu(), u.profile(), u.start()), k -> new ArrayList<>())
                    .add(b));
        }
        List<LayoutChange> changes = new ArrayList<>();
        List<GpuState> previous = null;
        for (Instant at : points) {
            if (changes.size() == MAX_CHANGES) {
                return new Layouts(fleet.pool().id(), from, to, List.copyOf(changes), true);
            }
            List<GpuState> gpus = states(fleet, holders, at);
            if (!gpus.equals(previous)) {
                changes.add(new LayoutChange(at, gpus));
                previous = gpus;
            }
        }
        return new Layouts(fleet.pool().id(), from, to, List.copyOf(changes), false);
    }

    private static List<GpuState> states(FleetReplica fleet, Map<Slot, List<Booking>> holders, Instant at) {
        List<GpuState> states = new ArrayList<>();
        for (Map.Entry<GpuAddress, GpuLayout> e : fleet.layoutsAt(at).entrySet()) {
            GpuAddress gpu = e.getKey();
            states.add(
                    switch (e.getValue()) {
                        case GpuLayout.Idle idle -> new GpuState(gpu.node(), gpu.index(), "idle", null, List.of());
                        case GpuLayout.Whole whole ->
                            new GpuState(gpu.node(), gpu.index(), "whole", whole.bookingId(), List.of());
                        case GpuLayout.Mig mig ->
                            new GpuState(gpu.node(), gpu.index(), "mig", null, instances(holders, gpu, mig, at));
                    });
        }
        return List.copyOf(states);
    }

    private static List<Instance> instances(
            Map<Slot, List<Booking>> holders, GpuAddress gpu, GpuLayout.Mig mig, Instant at) {
        List<Instance> out = new ArrayList<>();
        for (MigPlacement p : mig.instances()) {
            String holder =
                    holders.getOrDefault(new Slot(gpu.node(), gpu.index(), p.profile(), p.start()), List.of()).stream()
                            .filter(b -> b.activeAt(at))
                            .map(Booking::id)
                            .findFirst()
                            .orElse(null);
            out.add(new Instance(p.profile(), p.start(), holder));
        }
        return List.copyOf(out);
    }
}
