package io.gpuaas.bench.booking;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the no-show replay read back (confirmations, rejections, NO_SHOW releases, warnings) and the figures it makes:
 * GPU-hours booked and returned, and whether exactly the unused bookings long enough for a release were released.
 */
final class ReplayTally {

    /** A confirmed booking of the replay and what became of it. */
    private record Held(NoShowReplay.Pod pod, Booking booking, Instant releasedAt) {}

    /**
     * What one replay measured.
     *
     * @param gpuHoursBooked      confirmed bookings, quantity × weight × (end − start), in trace hours
     * @param gpuHoursReturned    NO_SHOW releases, quantity × weight × (end − releasedAt), in trace hours
     * @param expected            unused bookings longer than grace + margin: each must be released
     * @param released            NO_SHOW releases of unused bookings
     * @param missed              expected ones not released
     * @param usedReleased        used bookings released (false no-shows): must be 0
     * @param shortReleased       unused bookings not longer than the grace released: must be 0
     * @param borderline          unused bookings within the margin above the grace (either outcome is right)
     * @param warningsUsed        NoShowWarnings sent for used bookings (their Workload came after half the grace)
     */
    record Outcome(
            int pods,
            int accepted,
            Map<String, Integer> rejected,
            int unusedAccepted,
            double gpuHoursBooked,
            double gpuHoursReturned,
            int expected,
            int released,
            int missed,
            int usedReleased,
            int shortReleased,
            int borderline,
            int warnings,
            int warningsUsed) {
        boolean correct() {
            return missed == 0 && usedReleased == 0 && shortReleased == 0;
        }
    }

    private final PoolCatalog pools;
    private final Map<String, Held> held = new ConcurrentHashMap<>();
    private final Map<String, Integer> rejected = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    ReplayTally(PoolCatalog pools) {
        this.pools = pools;
    }

    void confirmed(NoShowReplay.Pod pod, Booking booking) {
        held.put(booking.id(), new Held(pod, booking, null));
    }

    void rejected(String reason) {
        rejected.merge(reason, 1, Integer::sum);
    }

    void released(String bookingId, Instant releasedAt) {
        held.computeIfPresent(bookingId, (id, h) -> new Held(h.pod(), h.booking(), releasedAt));
    }

    void warned(String bookingId) {
        warned.add(bookingId);
    }

    /** Commands answered so far, confirmed or rejected. */
    int answered() {
        return held.size() + rejected.values().stream().mapToInt(i -> i).sum();
    }

    Optional<Instant> lastStart() {
        return held.values().stream().map(h -> h.booking().start()).max(Comparator.naturalOrder());
    }

    /** ACTIVE bookings at {@code now} (confirmed, not released, not ended): what the lifecycle walks. */
    int active(Instant now) {
        return (int) held.values().stream()
                .filter(h -> h.releasedAt() == null && h.booking().end().isAfter(now))
                .count();
    }

    Outcome outcome(int podCount, Duration grace, Duration margin, double durations) {
        double booked = 0;
        double returned = 0;
        int unusedAccepted = 0;
        int expected = 0;
        int released = 0;
        int missed = 0;
        int usedReleased = 0;
        int shortReleased = 0;
        int borderline = 0;
        int warningsUsed = 0;
        for (Held h : held.values()) {
            Booking b = h.booking();
            double weight = weight(b.pool()) * b.quantity();
            booked += weight * seconds(b.start(), b.end());
            Duration length = Duration.between(b.start(), b.end());
            boolean isReleased = h.releasedAt() != null;
            if (isReleased) {
                returned += weight * seconds(h.releasedAt(), b.end());
            }
            if (!h.pod().unused()) {
                usedReleased += isReleased ? 1 : 0;
                warningsUsed += warned.contains(b.id()) ? 1 : 0;
                continue;
            }
            unusedAccepted++;
            released += isReleased ? 1 : 0;
            if (length.compareTo(grace.plus(margin)) > 0) {
                expected++;
                missed += isReleased ? 0 : 1;
            } else if (length.compareTo(grace) <= 0) {
                shortReleased += isReleased ? 1 : 0;
            } else {
                borderline++;
            }
        }
        double toTraceHours = durations / 3600;
        return new Outcome(
                podCount,
                held.size(),
                new TreeMap<>(rejected),
                unusedAccepted,
                booked * toTraceHours,
                returned * toTraceHours,
                expected,
                released,
                missed,
                usedReleased,
                shortReleased,
                borderline,
                warned.size(),
                warningsUsed);
    }

    /** A pool's units in GPUs, as the ledger weighs them ({@link Pool#gpuFraction()}: a 2g.35gb is 1/3 of an H200). */
    private double weight(String poolId) {
        return pools.find(poolId).map(Pool::gpuFraction).orElse(1.0);
    }

    private static double seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toNanos() / 1e9);
    }
}
