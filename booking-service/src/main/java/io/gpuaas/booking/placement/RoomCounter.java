package io.gpuaas.booking.placement;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.NavigableMap;
import java.util.OptionalLong;

/**
 * Counts how many units fit, by the same rule {@link UnitChooser} places them with. GPUs are independent, so a count
 * over the fleet is the sum of counts per GPU, each found by placing probe units on that GPU one at a time (its best
 * start each time, as a booking would get) and taking them off again: the schedules end as they began.
 */
final class RoomCounter {

    /** A run of the window's pieces where fewer units than asked fit; {@code fit} is the fewest in it. */
    record Shortfall(long from, long to, int fit) {}

    private static final String PROBE = "\u0000probe";

    private final UnitChooser chooser;

    RoomCounter(UnitChooser chooser) {
        this.chooser = chooser;
    }

    /** Units of {@code kind} that fit over {@code [start, end)}, counting no further than {@code limit}. */
    int count(FleetGpus gpus, UnitKind kind, long start, long end, int limit) {
        int total = 0;
        for (int g : gpus.candidates(kind, start, end)) {
            if (total >= limit) {
                break;
            }
            total += countOn(gpus.address(g), gpus.schedule(g), kind, start, end, limit - total);
        }
        return total;
    }

    /** Units of {@code kind} that fit on one GPU over {@code [start, end)}, counting no further than {@code limit}. */
    int countOn(GpuAddress gpu, GpuSchedule schedule, UnitKind kind, long start, long end, int limit) {
        Deque<Held> probes = new ArrayDeque<>();
        try {
            while (probes.size() < limit) {
                UnitChooser.Candidate c = chooser.bestOn(gpu, schedule, PROBE, kind, start, end);
                if (c == null) {
                    break;
                }
                schedule.add(c.unit(), start, end);
                probes.push(c.unit());
            }
            return probes.size();
        } finally {
            probes.forEach(p -> schedule.remove(p, start, end));
        }
    }

    /**
     * The first run of pieces of {@code [start, end)} (cut at every booking boundary of the fleet) where fewer than
     * {@code quantity} units fit, or null when every piece has room. Costs a count per piece: for refusals only.
     */
    Shortfall firstShortfall(
            FleetGpus gpus, NavigableMap<Long, Integer> boundaries, UnitKind kind, int quantity, long start, long end) {
        List<Long> cuts = new ArrayList<>();
        cuts.add(start);
        cuts.addAll(boundaries.subMap(start, false, end, false).keySet());
        cuts.add(end);
        Shortfall open = null;
        for (int i = 0; i + 1 < cuts.size(); i++) {
            long from = cuts.get(i);
            long to = cuts.get(i + 1);
            int fit = count(gpus, kind, from, to, quantity);
            if (fit < quantity) {
                open = open == null
                        ? new Shortfall(from, to, fit)
                        : new Shortfall(open.from(), to, Math.min(fit, open.fit()));
            } else if (open != null) {
                return open;
            }
        }
        return open;
    }

    /**
     * The earliest start at or after {@code from} and not after {@code horizon} at which {@code quantity} units fit
     * for {@code length}. Only {@code from} and the fleet's booking boundaries after it are tried: a window that fits
     * still fits when moved back to the last boundary before it, since nothing changes in between. Each try is a
     * count over the fleet, {@code O(B · G · (log n + k) · S)} for {@code B} boundaries passed.
     */
    OptionalLong earliestStart(
            FleetGpus gpus,
            NavigableMap<Long, Integer> boundaries,
            UnitKind kind,
            int quantity,
            long length,
            long from,
            long horizon) {
        long candidate = from;
        while (candidate <= horizon) {
            if (count(gpus, kind, candidate, candidate + length, quantity) >= quantity) {
                return OptionalLong.of(candidate);
            }
            Long next = boundaries.higherKey(candidate);
            if (next == null) {
                return OptionalLong.empty();
            }
            candidate = next;
        }
        return OptionalLong.empty();
    }
}
