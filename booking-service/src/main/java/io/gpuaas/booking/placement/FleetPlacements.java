package io.gpuaas.booking.placement;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import io.gpuaas.events.geometry.GpuGeometry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The placements over time of every booking on one flexible pool: a fleet of GPUs of one model that gpuaas lays out
 * itself. Each unit of a booking holds one GPU at one start slice (or the whole GPU) for the booking's whole window,
 * so at every instant no two bookings share a memory slice, every GPU runs a layout its geometry allows, and a whole
 * GPU runs nothing else. The layout of a GPU at an instant is the set of units held then, so a GPU changes layout
 * (or mode) only where units end or begin, on slices nobody holds across that instant.
 *
 * <p>Deterministic: GPUs are kept in address order, whatever is walked over bookings is sorted by id, a unit goes
 * where {@link UnitChooser}'s total order puts it, and nothing reads a clock or a random source; the same operations give the same placements.
 *
 * <p>Cost: per GPU a step function of layers ({@link GpuSchedule}) and, over them, a {@link SliceIndex} of the slices
 * held per 15-minute bucket, so placing a unit reads only the GPUs the index does not rule out ({@link UnitChooser}
 * has the figures), never a walk over every placement; releasing, shortening or extending a booking touches only its
 * own GPUs. Not thread-safe: one writer per pool owns it.
 */
public final class FleetPlacements {

    private record GpuUnit(GpuAddress gpu, Held held) {}

    private record Booked(PlacementRequest request, List<GpuUnit> units) {
        Placed placed() {
            return new Placed(
                    request.bookingId(),
                    units.stream().map(u -> u.held().on(u.gpu())).toList());
        }
    }

    private final GeometryRules rules;
    private final UnitChooser chooser;
    private final RoomCounter counter;
    private final FleetGpus gpus;
    /** By id; never walked, so its order does not matter. */
    private final Map<String, Booked> bookings = new HashMap<>();
    /** Starts and ends of every booking's window, with how many bookings have each (a multiset). */
    private final TreeMap<Long, Integer> boundaries = new TreeMap<>();

    /** A fleet of {@code gpus}, all of the model {@code geometry} describes, with nothing placed. */
    public FleetPlacements(GpuGeometry geometry, Collection<GpuAddress> gpus) {
        this.rules = new GeometryRules(geometry);
        this.chooser = new UnitChooser(rules);
        this.counter = new RoomCounter(chooser);
        this.gpus = new FleetGpus(rules, gpus);
    }

    /** The fleet's GPUs, in order. */
    public List<GpuAddress> gpus() {
        return gpus.addresses();
    }

    /**
     * Places every unit of {@code request}, one at a time by the placement rule ({@link UnitChooser}), or none:
     * {@code NO_ROOM} with the first interval of the window where fewer units fit, {@code FRAGMENTED} when every
     * instant has room but no place stays free for the whole window.
     */
    public PlacementOutcome place(PlacementRequest request) {
        return place(request, true);
    }

    /**
     * {@link #place(PlacementRequest)}, or with {@code explain} false a refusal that only says {@code NO_ROOM}, without
     * the search for the interval that is short: for a what-if whose refusal nobody reads.
     */
    PlacementOutcome place(PlacementRequest request, boolean explain) {
        String id = request.bookingId();
        if (bookings.containsKey(id)) {
            return Refused.of(id, PlacementRefusal.BOOKING_EXISTS, "booking " + id + " is already placed");
        }
        Optional<Refused> unknown = unknownProfile(id, request.kind());
        if (unknown.isPresent()) {
            return unknown.get();
        }
        long start = request.start().toEpochMilli();
        long end = request.end().toEpochMilli();
        List<GpuUnit> units = new ArrayList<>();
        for (int i = 0; i < request.quantity(); i++) {
            UnitChooser.Candidate best = chooser.best(gpus, id, request.kind(), start, end);
            if (best == null) {
                units.forEach(u -> gpus.unhold(u.gpu(), u.held(), start, end));
                return explain
                        ? noRoom(request, start, end)
                        : Refused.of(id, PlacementRefusal.NO_ROOM, "no room (not explained)");
            }
            gpus.hold(best.gpu(), best.unit(), start, end);
            units.add(new GpuUnit(best.gpu(), best.unit()));
        }
        Booked booked = new Booked(request, List.copyOf(units));
        bookings.put(id, booked);
        mark(start, 1);
        mark(end, 1);
        return booked.placed();
    }

    /** Takes every unit of the booking off its GPUs (a cancel); answers with where they were. */
    public PlacementOutcome release(String bookingId) {
        Booked booked = bookings.remove(bookingId);
        if (booked == null) {
            return notFound(bookingId);
        }
        long start = booked.request().start().toEpochMilli();
        long end = booked.request().end().toEpochMilli();
        booked.units().forEach(u -> gpus.unhold(u.gpu(), u.held(), start, end));
        mark(start, -1);
        mark(end, -1);
        return booked.placed();
    }

    /** Ends the booking at {@code newEnd}, after its start and before its end (an end-now); units stay where they are. */
    public PlacementOutcome shorten(String bookingId, Instant newEnd) {
        Booked booked = bookings.get(bookingId);
        if (booked == null) {
            return notFound(bookingId);
        }
        PlacementRequest r = booked.request();
        if (!newEnd.isAfter(r.start()) || !newEnd.isBefore(r.end())) {
            return Refused.of(
                    bookingId,
                    PlacementRefusal.INVALID_END,
                    "a shorter end must fall after " + r.start() + " and before " + r.end() + ", was " + newEnd);
        }
        long start = r.start().toEpochMilli();
        long end = r.end().toEpochMilli();
        booked.units().forEach(u -> gpus.moveEnd(u.gpu(), u.held(), start, end, newEnd.toEpochMilli()));
        return moveEnd(booked, newEnd);
    }

    /**
     * Extends the booking to {@code newEnd} with every unit on the GPU and slice it has, or refuses with
     * {@code NO_ROOM} and the first piece of the extension where one of them is taken.
     */
    public PlacementOutcome extend(String bookingId, Instant newEnd) {
        Booked booked = bookings.get(bookingId);
        if (booked == null) {
            return notFound(bookingId);
        }
        if (!newEnd.isAfter(booked.request().end())) {
            return Refused.of(
                    bookingId,
                    PlacementRefusal.INVALID_END,
                    "a longer end must fall after " + booked.request().end() + ", was " + newEnd);
        }
        long start = booked.request().start().toEpochMilli();
        long from = booked.request().end().toEpochMilli();
        long to = newEnd.toEpochMilli();
        List<GpuUnit> added = new ArrayList<>();
        for (GpuUnit u : booked.units()) {
            GpuSchedule.Piece conflict = gpus.schedule(u.gpu()).firstConflict(u.held(), from, to, rules);
            if (conflict != null) {
                added.forEach(a -> gpus.moveEnd(a.gpu(), a.held(), start, to, from));
                return new Refused(
                        bookingId,
                        PlacementRefusal.NO_ROOM,
                        u.held().kind() + " at slice " + u.held().slice() + " of " + u.gpu() + " is taken",
                        Instant.ofEpochMilli(conflict.from()),
                        Instant.ofEpochMilli(conflict.to()));
            }
            gpus.moveEnd(u.gpu(), u.held(), start, from, to);
            added.add(u);
        }
        return moveEnd(booked, newEnd);
    }

    /** Where the booking's units are, if it is placed. */
    public Optional<List<UnitPlacement>> placementsOf(String bookingId) {
        return Optional.ofNullable(bookings.get(bookingId)).map(b -> b.placed().units());
    }

    /** How many more units of {@code kind} fit over {@code [start, end)}, placed one by one by the rule. */
    public int unitsThatFit(UnitKind kind, Instant start, Instant end) {
        if (unknownProfile("", kind).isPresent()) {
            return 0;
        }
        return counter.count(gpus, kind, start.toEpochMilli(), end.toEpochMilli(), Integer.MAX_VALUE);
    }

    /**
     * The earliest start at or after {@code from}, not after {@code horizon}, at which {@code quantity} units of
     * {@code kind} fit for {@code duration}; tries {@code from} and then each booking boundary after it.
     */
    public Optional<Instant> earliestStart(
            UnitKind kind, int quantity, Duration duration, Instant from, Instant horizon) {
        if (unknownProfile("", kind).isPresent() || quantity < 1 || !duration.isPositive()) {
            return Optional.empty();
        }
        var found = counter.earliestStart(
                gpus, boundaries, kind, quantity, duration.toMillis(), from.toEpochMilli(), horizon.toEpochMilli());
        return found.isPresent() ? Optional.of(Instant.ofEpochMilli(found.getAsLong())) : Optional.empty();
    }

    /** What every GPU runs at {@code instant}, in GPU order. */
    public Map<GpuAddress, GpuLayout> layoutsAt(Instant instant) {
        Map<GpuAddress, GpuLayout> out = new LinkedHashMap<>();
        for (int g = 0; g < gpus.size(); g++) {
            out.put(gpus.address(g), GpuLayout.of(gpus.schedule(g).at(instant.toEpochMilli())));
        }
        return out;
    }

    /** The request of a placed booking, with its current end. */
    Optional<PlacementRequest> requestOf(String bookingId) {
        return Optional.ofNullable(bookings.get(bookingId)).map(Booked::request);
    }

    /** Per GPU (by position), how many units of {@code kind} fit over {@code [start, end)}, each up to {@code limit}. */
    int[] fitsPerGpu(UnitKind kind, long start, long end, int limit) {
        int[] out = new int[gpus.size()];
        for (int g : gpus.candidates(kind, start, end)) {
            out[g] = counter.countOn(gpus.address(g), gpus.schedule(g), kind, start, end, limit);
        }
        return out;
    }

    /**
     * How many more units of {@code kind} would fit over {@code [start, end)} on {@code on}, each GPU counted up to
     * {@code limit}, if {@code bookingId} were taken off, against {@code fitsNow} from {@link #fitsPerGpu}. The
     * booking's units come off the schedules and go back before anything else reads them, so the index is left alone;
     * the fleet ends as it began.
     */
    int gainWithout(
            String bookingId,
            Collection<GpuAddress> on,
            UnitKind kind,
            long start,
            long end,
            int limit,
            int[] fitsNow) {
        Booked booked = bookings.get(bookingId);
        long from = booked.request().start().toEpochMilli();
        long to = booked.request().end().toEpochMilli();
        booked.units().forEach(u -> gpus.schedule(u.gpu()).remove(u.held(), from, to));
        try {
            int gain = 0;
            for (GpuAddress gpu : on) {
                int now = fitsNow[gpus.position(gpu)];
                gain += counter.countOn(gpu, gpus.schedule(gpu), kind, start, end, limit) - now;
            }
            return gain;
        } finally {
            booked.units().forEach(u -> gpus.schedule(u.gpu()).add(u.held(), from, to));
        }
    }

    /**
     * The bookings starting after {@code now} that hold units in {@code [start, end)} and could, taken off, leave room
     * for a unit of {@code kind}, each with the GPUs where: those where what the other bookings hold in the window
     * leaves some start of the kind free. On every other GPU of such a booking a unit of the kind fits neither with it
     * nor without it. In booking id order.
     */
    SortedMap<String, SortedSet<GpuAddress>> couldMakeRoom(UnitKind kind, long start, long end, Instant now) {
        long[] needs = gpus.needs(kind);
        SortedMap<String, SortedSet<GpuAddress>> out = new TreeMap<>();
        List<String> present = new ArrayList<>();
        long[] othersHold = new long[8];
        for (int g = 0; g < gpus.size(); g++) {
            List<GpuSchedule.Piece> pieces = gpus.schedule(g).pieces(start, end);
            present.clear();
            for (GpuSchedule.Piece piece : pieces) {
                for (Held h : piece.layer().held()) {
                    if (!present.contains(h.bookingId())) {
                        present.add(h.bookingId());
                    }
                }
            }
            if (present.size() > othersHold.length) {
                othersHold = new long[present.size()];
            }
            // Per booking present, the slices the others hold somewhere in the window.
            Arrays.fill(othersHold, 0, present.size(), 0L);
            for (GpuSchedule.Piece piece : pieces) {
                Layer layer = piece.layer();
                for (int b = 0; b < present.size(); b++) {
                    long theirs = 0;
                    for (Held h : layer.held()) {
                        if (h.bookingId().equals(present.get(b))) {
                            theirs |= h.mask();
                        }
                    }
                    othersHold[b] |= layer.mask() & ~theirs;
                }
            }
            for (int b = 0; b < present.size(); b++) {
                for (long need : needs) {
                    if ((othersHold[b] & need) == 0) {
                        out.computeIfAbsent(present.get(b), k -> new TreeSet<>())
                                .add(gpus.address(g));
                        break;
                    }
                }
            }
        }
        out.keySet().removeIf(id -> !bookings.get(id).request().start().isAfter(now));
        return out;
    }

    /**
     * Places {@code request} on exactly {@code units}, as a decision recorded them (a rebuild from the bookings topic
     * or a read-side replica): all or nothing, refused with {@code NO_ROOM} and the first taken piece when a unit's
     * GPU and slice are held in part of the window, {@code UNKNOWN_PROFILE}, {@code BOOKING_EXISTS}, or
     * {@code NOT_FOUND} for a GPU outside the fleet. Never asks the placement rule.
     */
    public PlacementOutcome restore(PlacementRequest request, List<UnitPlacement> units) {
        String id = request.bookingId();
        if (bookings.containsKey(id)) {
            return Refused.of(id, PlacementRefusal.BOOKING_EXISTS, "booking " + id + " is already placed");
        }
        if (units.size() != request.quantity()) {
            throw new IllegalArgumentException(
                    "booking " + id + " has " + request.quantity() + " units, " + units.size() + " placed");
        }
        for (UnitPlacement u : units) {
            if (!u.kind().equals(request.kind())) {
                throw new IllegalArgumentException("booking " + id + " is of " + request.kind() + ", placed " + u);
            }
            Optional<Refused> unknown = unknownProfile(id, u.kind());
            if (unknown.isPresent()) {
                return unknown.get();
            }
            if (!gpus.contains(u.gpu())) {
                return Refused.of(id, PlacementRefusal.NOT_FOUND, "GPU " + u.gpu() + " is not in the fleet");
            }
        }
        long start = request.start().toEpochMilli();
        long end = request.end().toEpochMilli();
        List<GpuUnit> added = new ArrayList<>();
        for (UnitPlacement u : units) {
            Held unit = held(id, u);
            GpuSchedule.Piece conflict = gpus.schedule(u.gpu()).firstConflict(unit, start, end, rules);
            if (conflict != null) {
                added.forEach(a -> gpus.unhold(a.gpu(), a.held(), start, end));
                return new Refused(
                        id,
                        PlacementRefusal.NO_ROOM,
                        u + " is taken",
                        Instant.ofEpochMilli(conflict.from()),
                        Instant.ofEpochMilli(conflict.to()));
            }
            gpus.hold(u.gpu(), unit, start, end);
            added.add(new GpuUnit(u.gpu(), unit));
        }
        Booked booked = new Booked(request, List.copyOf(added));
        bookings.put(id, booked);
        mark(start, 1);
        mark(end, 1);
        return booked.placed();
    }

    private Held held(String bookingId, UnitPlacement u) {
        return switch (u.kind()) {
            case UnitKind.WholeGpu whole -> Held.whole(bookingId, rules);
            case UnitKind.Mig mig ->
                Held.mig(bookingId, rules.profile(mig.profile()).orElseThrow(), u.startSlice());
        };
    }

    /** Puts a released booking back exactly where it was; only to undo a {@link #release} just made. */
    void reinstate(PlacementRequest request, List<UnitPlacement> units) {
        long start = request.start().toEpochMilli();
        long end = request.end().toEpochMilli();
        List<GpuUnit> held = new ArrayList<>();
        for (UnitPlacement u : units) {
            Held unit = held(request.bookingId(), u);
            gpus.hold(u.gpu(), unit, start, end);
            held.add(new GpuUnit(u.gpu(), unit));
        }
        bookings.put(request.bookingId(), new Booked(request, List.copyOf(held)));
        mark(start, 1);
        mark(end, 1);
    }

    private PlacementOutcome moveEnd(Booked booked, Instant newEnd) {
        Booked moved = new Booked(booked.request().withEnd(newEnd), booked.units());
        bookings.put(booked.request().bookingId(), moved);
        mark(booked.request().end().toEpochMilli(), -1);
        mark(newEnd.toEpochMilli(), 1);
        return moved.placed();
    }

    /**
     * Why {@code request} does not fit, as {@link #place(PlacementRequest)} would explain it: for a request an
     * unexplained {@link #place(PlacementRequest, boolean)} has just refused, with the fleet as it was then.
     */
    Refused noRoom(PlacementRequest request) {
        return noRoom(request, request.start().toEpochMilli(), request.end().toEpochMilli());
    }

    private Refused noRoom(PlacementRequest r, long start, long end) {
        RoomCounter.Shortfall short_ = counter.firstShortfall(gpus, boundaries, r.kind(), r.quantity(), start, end);
        if (short_ == null) {
            return Refused.of(
                    r.bookingId(),
                    PlacementRefusal.FRAGMENTED,
                    r.quantity() + " × " + r.kind()
                            + " fit at every instant of the window but not in the same places throughout");
        }
        return new Refused(
                r.bookingId(),
                PlacementRefusal.NO_ROOM,
                "only " + short_.fit() + " of " + r.quantity() + " × " + r.kind() + " fit in part of the window",
                Instant.ofEpochMilli(short_.from()),
                Instant.ofEpochMilli(short_.to()));
    }

    private Optional<Refused> unknownProfile(String bookingId, UnitKind kind) {
        return switch (kind) {
            case UnitKind.WholeGpu whole -> Optional.empty();
            case UnitKind.Mig mig ->
                rules.profile(mig.profile()).isPresent()
                        ? Optional.empty()
                        : Optional.of(Refused.of(
                                bookingId,
                                PlacementRefusal.UNKNOWN_PROFILE,
                                rules.geometry() + " offers no MIG profile " + mig.profile()));
        };
    }

    private static Refused notFound(String bookingId) {
        return Refused.of(bookingId, PlacementRefusal.NOT_FOUND, "no placed booking " + bookingId);
    }

    private void mark(long t, int delta) {
        boundaries.merge(t, delta, (a, b) -> a + b == 0 ? null : a + b);
    }
}
