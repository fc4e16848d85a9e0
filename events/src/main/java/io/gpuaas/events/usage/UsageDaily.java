package io.gpuaas.events.usage;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One tenant's ledger for one UTC day, in GPU-hours (MIG slices weighted by their share of a GPU, see
 * {@link #migWeighting()}); the values of
 * the compacted {@code gpuaas.usage-ledger}, keyed by {@code <tenant>/<yyyy-mm-dd>}. metrics-gateway's DESIGN.md
 * defines every figure; a later record of the same key replaces the earlier one.
 *
 * @param tenant  the tenant
 * @param day     the UTC day, {@code yyyy-mm-dd}
 * @param pools   pool id to that pool's figures of the day
 * @param total   the sum over the pools
 * @param version how many input records the ledger had folded when this record was computed
 * @param asOf    the latest event time among those records (never the wall clock)
 * @param sealed   true on the day's final record: the day is over and will not be published again; every
 *                 metrics-gateway replica serves this record for the day instead of its own fold (null or false:
 *                 the day may still change)
 * @param bookings the day's figures per booking of the tenant (so a booking's view of the day outlives the input
 *                 topics' retention); null on records written before they were added
 * @param cut      the whole minute up to which the figures count: every figure covers {@code [day start, cut)} of the
 *                 day; the figures stop at cut, on a sealed record too (sealed from a whole fold, at or after the
 *                 day's end; sealed as it stood, when the sealing replica had only that record, its old cut, and
 *                 the day's use after it is not counted); null on records written before it was added, whose extent
 *                 is unknown
 * @param migWeighting how MIG slices are weighed: {@value #GPU_SHARE}, a slice of a profile k of which fill one GPU
 *                 weighs 1/k; null on records written before it was added, which weighed a slice by its compute
 *                 share N/7 ({@code 2g.35gb} 2/7 where it now weighs 1/3)
 */
public record UsageDaily(
        String tenant,
        String day,
        Map<String, Figures> pools,
        Figures total,
        long version,
        Instant asOf,
        Boolean sealed,
        List<BookingDay> bookings,
        Instant cut,
        String migWeighting)
        implements UsageLedgerEvent {

    /** {@link #migWeighting()} of records whose MIG slices weigh 1/k of a GPU, k slices of the profile filling one. */
    public static final String GPU_SHARE = "gpu-share";

    /** A record of a day that may still change, without per-booking figures or cut (as first written). */
    public UsageDaily(
            String tenant, String day, Map<String, Figures> pools, Figures total, long version, Instant asOf) {
        this(tenant, day, pools, total, version, asOf, null, null, null, null);
    }

    /** A record without cut or MIG weighting marker (as written before cut was added). */
    public UsageDaily(
            String tenant,
            String day,
            Map<String, Figures> pools,
            Figures total,
            long version,
            Instant asOf,
            Boolean sealed,
            List<BookingDay> bookings) {
        this(tenant, day, pools, total, version, asOf, sealed, bookings, null, null);
    }

    /** A record without MIG weighting marker (as written before it was added: slices weighed N/7). */
    public UsageDaily(
            String tenant,
            String day,
            Map<String, Figures> pools,
            Figures total,
            long version,
            Instant asOf,
            Boolean sealed,
            List<BookingDay> bookings,
            Instant cut) {
        this(tenant, day, pools, total, version, asOf, sealed, bookings, cut, null);
    }

    /** Whether MIG slices in this record weigh 1/k of a GPU ({@value #GPU_SHARE}), not N/7 as in older records. */
    public boolean weighsMigByGpuShare() {
        return GPU_SHARE.equals(migWeighting);
    }

    /** Whether this is the day's final record. */
    public boolean isSealed() {
        return Boolean.TRUE.equals(sealed);
    }

    /**
     * One booking's figures on the record's day.
     *
     * @param bookingId the booking
     * @param pool      its pool
     * @param figures   its GPU-hours of the day, unrounded (a figure over several days is rounded once, after the sum)
     */
    public record BookingDay(String bookingId, String pool, Figures figures) {}

    /** The record key of a tenant's day. */
    public static String key(String tenant, String day) {
        return tenant + "/" + day;
    }

    /**
     * GPU-hours of one pool (or all pools) over one day.
     *
     * @param booked    booked window of the tenant's bookings (released ones included)
     * @param admitted  Workloads admitted on the bookings' flavors while the bookings held, capped at their quantity
     * @param busy      device time above the idle threshold, attributed to a holding booking
     * @param idle      device time at or under the idle threshold, attributed to a holding booking
     * @param reclaimed GPUs freed by idle reclaim, from the reclaim until the resume or the booking's end
     * @param released  booked time given back early (end now or no-show), from the release to the booked end
     */
    public record Figures(double booked, double admitted, double busy, double idle, double reclaimed, double released) {

        /** All zero. */
        public static final Figures ZERO = new Figures(0, 0, 0, 0, 0, 0);

        /** The sum of this and {@code other}. */
        public Figures plus(Figures other) {
            return new Figures(
                    booked + other.booked,
                    admitted + other.admitted,
                    busy + other.busy,
                    idle + other.idle,
                    reclaimed + other.reclaimed,
                    released + other.released);
        }
    }
}
