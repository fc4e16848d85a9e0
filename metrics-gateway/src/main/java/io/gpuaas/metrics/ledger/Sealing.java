package io.gpuaas.metrics.ledger;

import io.gpuaas.events.usage.UsageDaily;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * When a UTC day is over for the ledger, and whether a replica's fold can see a day whole (metrics-gateway DESIGN.md,
 * "Sealed days, cut, BASE + DELTA"). Pure: every rule reads event times, never the wall clock.
 *
 * @param sealAfter how long after a day's end (in event time, {@code asOf}) late records may still change it;
 *                  shorter than the shortest input retention, so the replica that seals a day still holds its inputs
 * @param cutLag    how far a snapshot's cut stays behind {@code asOf}: a reading's gap is charged only when the
 *                  device's next reading arrives, so the figures before {@code asOf - cutLag} are complete when it
 *                  covers the longest charged gap plus the skew between inputs; shorter than {@code sealAfter}
 */
public record Sealing(Duration sealAfter, Duration cutLag) {

    private static final long MINUTE = 60_000;

    public Sealing {
        if (cutLag.isNegative() || cutLag.compareTo(sealAfter) >= 0) {
            throw new IllegalArgumentException("ledger.cut-lag (" + cutLag
                    + ") must be at least 0 and shorter than ledger.seal-after (" + sealAfter + ")");
        }
    }

    /**
     * The cut of a snapshot whose latest event time is {@code asOf}: the whole minute of {@code asOf - cutLag}
     * (epoch ms), so sample minutes and spans split cleanly there; {@link Long#MIN_VALUE} before the first event.
     */
    public long cut(Instant asOf) {
        return asOf == null ? Long.MIN_VALUE : Math.floorDiv(asOf.minus(cutLag).toEpochMilli(), MINUTE) * MINUTE;
    }

    /** A day is sealed once {@code asOf} has passed its end by {@link #sealAfter()}. */
    public boolean sealed(LocalDate day, Instant asOf) {
        return asOf != null && !asOf.isBefore(end(day).plus(sealAfter));
    }

    /**
     * Whether a fold complete from {@code horizon} on (null: complete) sees all of {@code day}: no input's earliest
     * kept record is later than the day's start.
     */
    public static boolean visible(LocalDate day, Instant horizon) {
        return horizon == null || !horizon.isAfter(start(day));
    }

    /**
     * The instant before which the fold's inputs may be dropped: the start of the earliest day that still needs
     * them, i.e. not yet sealed by {@code asOf}, or with figures in the fold but no sealed record on the topic yet
     * (an unsealed record, served as BASE + DELTA or BASE alone, may still be sealed with the fold's DELTA).
     *
     * @param foldDays key ({@code <tenant>/<day>}) of every day the fold has figures for
     * A day that ended at or before {@code horizon} is not counted: the fold never saw it whole, so without a record
     * it is never published, and with one its DELTA is empty; keeping its inputs cannot help, and would stop every
     * later drop.
     *
     * @param served   the records served instead of the fold, by key
     * @param horizon  from when the fold sees every input whole (null: from their start)
     */
    public long cutoff(Iterable<String> foldDays, Map<String, UsageDaily> served, Instant asOf, Instant horizon) {
        if (asOf == null) {
            return Long.MIN_VALUE;
        }
        LocalDate open = LocalDate.ofInstant(asOf.minus(sealAfter), ZoneOffset.UTC);
        for (String key : foldDays) {
            LocalDate day = LocalDate.parse(key.substring(key.lastIndexOf('/') + 1));
            UsageDaily record = served.get(key);
            boolean unseen = horizon != null && !end(day).isAfter(horizon);
            if (day.isBefore(open) && !unseen && (record == null || !record.isSealed())) {
                open = day;
            }
        }
        return start(open).toEpochMilli();
    }

    static Instant start(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    static Instant end(LocalDate day) {
        return start(day.plusDays(1));
    }
}
