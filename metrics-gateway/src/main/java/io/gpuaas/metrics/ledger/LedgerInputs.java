package io.gpuaas.metrics.ledger;

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
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The ledger's fold of its four input topics (booking-events, kueue-workloads, reclaim-events, gpu-samples) into
 * what the figures are computed from. Every value kept is a function of the records' contents and event times;
 * records of one key come in order, and nothing depends on how records of different keys or topics interleave, so a
 * fresh instance replaying the topics from their beginning folds to the same state. {@link #ledger()} computes the
 * figures from that state ({@link LedgerCalculator}), cached until the next record.
 */
public final class LedgerInputs {

    private final PoolCatalog pools;
    private final Map<String, BookingFacts> bookings = new HashMap<>();
    private final AdmissionSpans admissions;
    private final ReclaimSpans reclaims = new ReclaimSpans();
    private final SampleBuckets samples;
    private long version;
    private Instant asOf;
    private Ledger cached;
    private Ledger cachedToAsOf;

    public LedgerInputs(PoolCatalog pools, double idleThreshold, Duration maxGap) {
        this.pools = pools;
        this.admissions =
                new AdmissionSpans(pools.pools().stream().map(Pool::resource).collect(Collectors.toUnmodifiableSet()));
        this.samples = new SampleBuckets(pools, idleThreshold, maxGap.toMillis());
    }

    /** A booking's latest snapshot (by version) and, for a release, its reason and time. Rejections hold nothing. */
    public synchronized void apply(BookingEvent event) {
        switch (event) {
            case BookingEvent.BookingRejected r -> {}
            case BookingReleased r -> merge(new BookingFacts(r.booking(), r.reason(), r.releasedAt()));
            case BookingEvent.BookingConfirmed e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingCancelled e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingExtended e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingActivated e -> merge(new BookingFacts(e.booking(), null, null));
            case BookingEvent.BookingCompleted e -> merge(new BookingFacts(e.booking(), null, null));
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
        cached = null;
        cachedToAsOf = null;
    }

    /** The figures of every booking and day; open admissions and reclaims count until {@link Ledger#asOf()}. */
    public synchronized Ledger ledger() {
        if (cached == null) {
            cached = compute(Long.MAX_VALUE);
        }
        return cached;
    }

    /** The same, with every window also cut at {@link Ledger#asOf()}: what has accrued so far (the counters). */
    public synchronized Ledger accruedLedger() {
        if (cachedToAsOf == null) {
            cachedToAsOf = compute(asOf == null ? Long.MIN_VALUE : asOf.toEpochMilli());
        }
        return cachedToAsOf;
    }

    private Ledger compute(long until) {
        long end = asOf == null ? Long.MIN_VALUE : asOf.toEpochMilli();
        List<BookingFacts> facts = new ArrayList<>(bookings.values());
        facts.sort(Comparator.comparing(f -> f.booking().id()));
        Function<String, Double> weights = poolId -> weight(facts, poolId);
        return new LedgerCalculator(facts, weights, admissions.spans(end), reclaims.spans(end), samples::of)
                .compute(until, version, asOf);
    }

    private double weight(List<BookingFacts> facts, String poolId) {
        return pools.find(poolId).map(Pool::gpuFraction).orElseGet(() -> facts.stream()
                .filter(f -> f.booking().pool().equals(poolId))
                .findFirst()
                .map(f -> weightOfResource(f.booking().resource()))
                .orElse(1.0));
    }

    /**
     * A pool the catalog does not know: a {@code nvidia.com/mig-<profile>} resource is weighed by its profile
     * (sevenths), anything else as a whole GPU.
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
