package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Interval;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reserved units over time on one pool, as a step function: each breakpoint (epoch millis) maps to the level
 * that holds from it until the next breakpoint; before the first and after the last the level is 0.
 *
 * <p>Only level changes are stored, so a reservation costs two breakpoints and a check over {@code [s, e)}
 * costs {@code O(log n + k)} where {@code k} is the number of breakpoints inside the window (the bookings that
 * overlap it), not the number of bookings on the pool. Not thread-safe: one writer per pool owns it.
 */
public final class PoolTimeline {

    private final TreeMap<Long, Integer> steps = new TreeMap<>();

    /** Adds {@code units} over {@code [start, end)}. */
    public void reserve(Instant start, Instant end, int units) {
        add(start.toEpochMilli(), end.toEpochMilli(), units);
    }

    /** Removes {@code units} over {@code [start, end)}; the inverse of {@link #reserve}. */
    public void release(Instant start, Instant end, int units) {
        add(start.toEpochMilli(), end.toEpochMilli(), -units);
    }

    /** Units reserved at {@code instant}. */
    public int reservedAt(Instant instant) {
        return levelAt(instant.toEpochMilli());
    }

    /** The highest level anywhere in {@code [start, end)}. */
    public int maxReserved(Instant start, Instant end) {
        long s = start.toEpochMilli();
        long e = end.toEpochMilli();
        int max = levelAt(s);
        for (int level : steps.subMap(s, false, e, false).values()) {
            max = Math.max(max, level);
        }
        return max;
    }

    /** Constant-level pieces covering {@code [start, end)}, in order. */
    public List<Interval> segments(Instant start, Instant end) {
        long s = start.toEpochMilli();
        long e = end.toEpochMilli();
        List<Interval> out = new ArrayList<>();
        long cursor = s;
        int level = levelAt(s);
        for (Map.Entry<Long, Integer> step : steps.subMap(s, false, e, false).entrySet()) {
            out.add(new Interval(Instant.ofEpochMilli(cursor), Instant.ofEpochMilli(step.getKey()), level));
            cursor = step.getKey();
            level = step.getValue();
        }
        if (cursor < e) {
            out.add(new Interval(Instant.ofEpochMilli(cursor), end, level));
        }
        return out;
    }

    /** The pieces of {@code [start, end)} where more than {@code limit} units are reserved, adjacent ones merged. */
    public List<Interval> above(Instant start, Instant end, int limit) {
        List<Interval> out = new ArrayList<>();
        for (Interval piece : segments(start, end)) {
            if (piece.reserved() <= limit) {
                continue;
            }
            Interval last = out.isEmpty() ? null : out.getLast();
            if (last != null && last.end().equals(piece.start())) {
                out.set(
                        out.size() - 1,
                        new Interval(last.start(), piece.end(), Math.max(last.reserved(), piece.reserved())));
            } else {
                out.add(piece);
            }
        }
        return out;
    }

    /**
     * The earliest start at or after {@code from}, aligned to {@code alignment}, at which the level stays at or
     * under {@code limit} for {@code duration}; empty if none starts before {@code horizon}. Each breakpoint is
     * visited at most once, so the search is linear in the breakpoints between {@code from} and the answer.
     */
    public Optional<Instant> earliestFit(
            Instant from, Duration duration, int limit, Duration alignment, Instant horizon) {
        if (limit < 0) {
            return Optional.empty();
        }
        long align = Math.max(1, alignment.toMillis());
        long length = duration.toMillis();
        long candidate = alignUp(from.toEpochMilli(), align);
        long stop = horizon.toEpochMilli();
        while (candidate <= stop) {
            Long blocked = firstAbove(candidate, candidate + length, limit);
            if (blocked == null) {
                return Optional.of(Instant.ofEpochMilli(candidate));
            }
            candidate = alignUp(firstAtOrUnder(blocked, limit), align);
        }
        return Optional.empty();
    }

    /** Number of breakpoints; a measure of the timeline's size. */
    public int breakpoints() {
        return steps.size();
    }

    public boolean isEmpty() {
        return steps.isEmpty();
    }

    private Long firstAbove(long s, long e, int limit) {
        if (levelAt(s) > limit) {
            return s;
        }
        for (Map.Entry<Long, Integer> step : steps.subMap(s, false, e, false).entrySet()) {
            if (step.getValue() > limit) {
                return step.getKey();
            }
        }
        return null;
    }

    private long firstAtOrUnder(long from, int limit) {
        for (Map.Entry<Long, Integer> step : steps.tailMap(from, false).entrySet()) {
            if (step.getValue() <= limit) {
                return step.getKey();
            }
        }
        // The last breakpoint always drops to 0, so this is reached only when limit < 0 (excluded above).
        return Long.MAX_VALUE / 2;
    }

    private static long alignUp(long millis, long align) {
        return Math.floorDiv(millis + align - 1, align) * align;
    }

    private void add(long s, long e, int delta) {
        if (e <= s || delta == 0) {
            return;
        }
        split(s);
        split(e);
        for (Map.Entry<Long, Integer> step : steps.subMap(s, true, e, false).entrySet()) {
            step.setValue(step.getValue() + delta);
        }
        dropIfRedundant(e);
        dropIfRedundant(s);
    }

    private int levelAt(long t) {
        Map.Entry<Long, Integer> floor = steps.floorEntry(t);
        return floor == null ? 0 : floor.getValue();
    }

    private void split(long t) {
        if (!steps.containsKey(t)) {
            steps.put(t, levelAt(t));
        }
    }

    private void dropIfRedundant(long t) {
        Integer level = steps.get(t);
        if (level == null) {
            return;
        }
        Map.Entry<Long, Integer> previous = steps.lowerEntry(t);
        int before = previous == null ? 0 : previous.getValue();
        if (before == level) {
            steps.remove(t);
        }
    }
}
