package io.gpuaas.metrics.ledger;

import io.gpuaas.events.usage.UsageDaily.Figures;
import java.time.LocalDate;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One booking's figures per UTC day, in unit-milliseconds (exact integers: the units times the time they were held
 * or used), turned into GPU-hours with the booking's {@code weight} only when read.
 */
public final class BookingLedger {

    private static final double MILLIS_PER_HOUR = 3_600_000.0;

    private final BookingFacts facts;
    private final double weight;
    private final NavigableMap<LocalDate, long[]> days = new TreeMap<>();
    /** Recent minutes (epoch ms) to the {busy, idle} device-ms attributed to this booking in them. */
    private final NavigableMap<Long, long[]> minutes = new TreeMap<>();

    BookingLedger(BookingFacts facts, double weight) {
        this.facts = facts;
        this.weight = weight;
    }

    void add(LocalDate day, Kind kind, long unitMillis) {
        if (unitMillis > 0) {
            days.computeIfAbsent(day, d -> new long[Kind.values().length])[kind.ordinal()] += unitMillis;
        }
    }

    void minute(long minute, long busyMillis, long idleMillis) {
        if (busyMillis > 0 || idleMillis > 0) {
            long[] ms = minutes.computeIfAbsent(minute, m -> new long[2]);
            ms[0] += busyMillis;
            ms[1] += idleMillis;
        }
    }

    /** The recent minutes with attributed device time: minute (epoch ms) to {busy, idle} device-ms. */
    public NavigableMap<Long, long[]> minutes() {
        return minutes;
    }

    public BookingFacts facts() {
        return facts;
    }

    /** The fraction of a GPU one unit of the booking's pool is. */
    public double weight() {
        return weight;
    }

    /** The days with any figure, in order. */
    public NavigableMap<LocalDate, long[]> days() {
        return days;
    }

    /** The GPU-hours of the days in {@code [from, to)}, unrounded. */
    public Figures figures(LocalDate from, LocalDate to) {
        long[] sum = new long[Kind.values().length];
        for (Map.Entry<LocalDate, long[]> day :
                days.subMap(from, true, to, false).entrySet()) {
            for (int k = 0; k < sum.length; k++) {
                sum[k] += day.getValue()[k];
            }
        }
        return figures(sum);
    }

    /** The GPU-hours of one day, unrounded. */
    public Figures figures(LocalDate day) {
        long[] ms = days.get(day);
        return ms == null ? Figures.ZERO : figures(ms);
    }

    private Figures figures(long[] ms) {
        return new Figures(hours(ms[0]), hours(ms[1]), hours(ms[2]), hours(ms[3]), hours(ms[4]), hours(ms[5]));
    }

    private double hours(long unitMillis) {
        return unitMillis * weight / MILLIS_PER_HOUR;
    }
}
