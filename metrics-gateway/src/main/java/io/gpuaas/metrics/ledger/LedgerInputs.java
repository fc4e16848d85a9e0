package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.workload.WorkloadEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ledger's fold of its four input topics (booking-events, kueue-workloads, reclaim-events, gpu-samples) into
 * what the figures are computed from. Every value kept is a function of the records' contents and event times;
 * records of one key come in order, and nothing depends on how records of different keys or topics interleave, so a
 * fresh instance replaying the topics from their beginning folds to the same state. The feed's thread only appends
 * here, under the lock; {@link #copy()} takes what a computation needs under the lock, and the computation
 * ({@link LedgerCalculator}) runs outside it, on the snapshot thread ({@link LedgerSnapshots}).
 */
public final class LedgerInputs {

    /**
     * What a computation needs, copied: nothing in it changes after {@link #copy()} returned.
     *
     * @param weights booking id to the fraction of a GPU one of its units is ({@link #weight(Booking)})
     * @param horizon the earliest instant from which every input is complete in this fold, null when all are
     */
    record Copy(
            List<BookingFacts> facts,
            Map<String, Double> weights,
            List<Span> admissions,
            List<Span> reclaims,
            Map<String, NavigableMap<Long, long[]>> samples,
            long version,
            Instant asOf,
            Instant horizon) {}

    private final PoolCatalog pools;
    private final Map<String, BookingFacts> bookings = new HashMap<>();
    private final AdmissionSpans admissions;
    private final ReclaimSpans reclaims = new ReclaimSpans();
    private final SampleBuckets samples;
    private Instant horizon;
    private long version;
    private Instant asOf;

    public LedgerInputs(PoolCatalog pools, double idleThreshold, Duration maxGap) {
        this.pools = pools;
        this.admissions = new AdmissionSpans(gpuResources(pools));
        this.samples = new SampleBuckets(pools, idleThreshold, maxGap.toMillis());
    }

    /**
     * Every resource a Workload may be admitted on under the catalog's pools: a static pool's own resource, and for a
     * flexible pool {@code nvidia.com/gpu} and {@code nvidia.com/mig-<profile>} of each of its bookable profiles.
     */
    static Set<String> gpuResources(PoolCatalog pools) {
        Set<String> resources = new TreeSet<>();
        for (Pool pool : pools.pools()) {
            resources.add(pool.resource());
            if (pool.flexible()) {
                resources.add(pool.resourceFor(null));
                pool.bookableProfiles().forEach(p -> resources.add(pool.resourceFor(p)));
            }
        }
        return Set.copyOf(resources);
    }

    /**
     * A booking's latest snapshot (by version) and, for a release, its reason and time. Rejections hold nothing; a
     * move (a flexible booking's new placement before its start) is a newer version like any other and changes no
     * figure, as window and quantity stay. A series' answers add nothing: their occurrences come as events of their own.
     */
    public synchronized void apply(BookingEvent event) {
        switch (event) {
            case BookingEvent.BookingRejected r -> {}
            case BookingReleased r -> merge(new BookingFacts(r.booking(), r.reason(), r.releasedAt()));
            case BookingEvent.BookingConfirmed e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingCancelled e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingExtended e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingActivated e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingCompleted e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingMoved e -> merge(new BookingFacts(e.booking(), null, null));
            // Awaiting approval or denied: the facts book nothing (BookingFacts); an approval is a newer version.
            case BookingEvent.BookingPendingApproval e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingApprovalDecided e -> merge(new BookingFacts(e.booking(), null, null));
            // A series' answers summarise: each occurrence comes as its own BookingConfirmed / BookingCancelled.
            case BookingEvent.SeriesDecided e -> {}
            case BookingEvent.SeriesCancelled e -> {}
            case BookingEvent.BookingWaitlisted e -> {} // a request waiting, nothing booked
            case BookingEvent.WaitlistEnded e -> {} // a booked entry's booking comes as BookingConfirmed
            case BookingEvent.WorkloadKeepDecided e -> {} // the keep's idle time is counted from ReclaimKept
        }
        folded(event.time());
    }

    private void merge(BookingFacts next) {
        bookings.merge(next.booking().id(), next, (old, now) -> {
            BookingFacts latest = now.booking().version() >= old.booking().version() ? now : old;
            BookingFacts released = now.releaseReason() != null ? now : old;
            return new BookingFacts(latest.booking(), released.releaseReason(), released.releasedAt());
        });
    }

    public synchronized void apply(String key, WorkloadEvent event) {
        admissions.apply(key, event);
        folded(event.time());
    }

    public synchronized void apply(ReclaimEvent event) {
        reclaims.apply(event);
        folded(event.time());
    }

    public synchronized void apply(GpuScrape scrape) {
        samples.apply(scrape);
        folded(scrape.time());
    }

    private void folded(Instant time) {
        version++;
        if (time != null && (asOf == null || time.isAfter(asOf))) {
            asOf = time;
        }
    }

    /**
     * From when every input is whole in this fold: over every input partition whose log no longer starts at offset
     * 0 (retention or a deletion moved it), the latest event time of the first record it still holds; null when no
     * partition lost a record. Read from the broker when the feed starts, not from what the fold holds: one
     * partition that lost nothing must not hide that another lost its first hours.
     */
    public synchronized void horizon(Instant horizon) {
        this.horizon = horizon;
    }

    /** Input records folded so far. */
    public synchronized long version() {
        return version;
    }

    /**
     * Forgets input state that only days before {@code cutoff} (epoch ms) need: spans that ended by then, and sample
     * minutes before {@code samplesCutoff} (at most {@code cutoff}: the utilization endpoint reads the last 24 h).
     * Those days are sealed (served from {@code gpuaas.usage-ledger}), so this bounds memory.
     */
    public synchronized void dropBefore(long cutoff, long samplesCutoff) {
        admissions.dropEndedBy(cutoff);
        reclaims.dropEndedBy(cutoff);
        samples.dropBefore(Math.min(cutoff, samplesCutoff));
    }

    /** What a computation needs, copied under the lock (the feed waits only for the copy, not the computation). */
    synchronized Copy copy() {
        long end = asOf == null ? Long.MIN_VALUE : asOf.toEpochMilli();
        List<BookingFacts> facts = new ArrayList<>(bookings.values());
        facts.sort(Comparator.comparing(f -> f.booking().id()));
        Map<String, Double> weights = new HashMap<>();
        facts.forEach(f -> weights.put(f.booking().id(), weight(f.booking())));
        return new Copy(
                facts, weights, admissions.spans(end), reclaims.spans(end), samples.copy(), version, asOf, horizon);
    }

    /**
     * The figures of every booking and day computed now from the fold alone (no sealed day from the topic), cut at
     * the minute of {@code asOf}.
     */
    public Ledger ledger() {
        return LedgerSnapshots.compute(copy(), Map.of(), new Sealing(Duration.ofDays(1), Duration.ZERO));
    }

    /**
     * The fraction of a GPU one unit of {@code booking} is, by which its GPU-hours are weighed: on a static pool the
     * pool's {@link Pool#gpuFraction()}; on a flexible pool that of the booking's own profile
     * ({@link Pool#gpuFraction(String)} of {@link Pool#profileOf(String) profileOf(resource)}: {@code 1/k}, as a
     * static pool of that profile weighs it, 1 for whole GPUs); for a pool the catalog does not know, or a profile
     * its model does not offer, by the booking's resource ({@link #weightOfResource(String)}).
     */
    double weight(Booking booking) {
        return pools.find(booking.pool())
                .map(pool -> {
                    if (!pool.flexible()) {
                        return pool.gpuFraction();
                    }
                    try {
                        return pool.gpuFraction(pool.profileOf(booking.resource()));
                    } catch (IllegalArgumentException e) {
                        return weightOfResource(booking.resource());
                    }
                })
                .orElseGet(() -> weightOfResource(booking.resource()));
    }

    /**
     * A pool the catalog does not know: a {@code nvidia.com/mig-<profile>} resource is weighed by its profile as
     * {@link Pool#gpuFraction(String, String)} weighs a GPU model the geometry catalog does not list (the resource
     * names no model): N sevenths for {@code <N>g.*}; anything else as a whole GPU.
     */
    static double weightOfResource(String resource) {
        String mig = "nvidia.com/mig-";
        if (resource == null || !resource.startsWith(mig)) {
            return 1.0;
        }
        try {
            return Pool.gpuFraction(null, resource.substring(mig.length()));
        } catch (IllegalArgumentException e) {
            return 1.0; // a profile without <N>g: counted as a whole GPU rather than failing every read
        }
    }
}
