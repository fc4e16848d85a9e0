package io.gpuaas.metrics.projection;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bookings that hold capacity, from the compacted {@code gpuaas.bookings} topic. Which of them are active is
 * decided when asked, so a window boundary shows up on the next scrape without any timer.
 *
 * <p>A pool's unit is its resource: a static pool's GPU or MIG slice, a flexible pool's GPU. A flexible pool's
 * bookings reserve slices of many sizes, so its booked units are counted in GPUs: each booking's quantity weighed by
 * its profile's share of a GPU ({@link Pool#gpuFraction(String)}, as the ledger weighs it), which adds up against
 * the pool's capacity. A unit count across profiles would add a 1g.18gb to a 7g.141gb.
 */
public final class BookedUnits {

    private final Map<String, Booking> holding = new ConcurrentHashMap<>();
    private final PoolCatalog pools;

    /** Without a pool catalog: every pool counted in its bookings' units. */
    public BookedUnits() {
        this(new PoolCatalog(List.of()));
    }

    /** Flexible pools of {@code pools} counted in GPUs, every other pool in units. */
    public BookedUnits(PoolCatalog pools) {
        this.pools = pools;
    }

    /** Applies the record at {@code bookingId}; a null booking is a tombstone. */
    public void apply(String bookingId, Booking booking) {
        if (booking == null || !booking.state().holdsCapacity()) {
            holding.remove(bookingId);
        } else {
            holding.put(bookingId, booking);
        }
    }

    /**
     * Tenant to pool to units booked and active at {@code now}, for static pools; a tenant holding only flexible
     * pools has an empty map (whole units cannot say how much of a flexible pool is booked: see
     * {@link #bookedAt(Instant)}). Bookings whose window is over are dropped.
     */
    public Map<String, Map<String, Integer>> activeAt(Instant now) {
        Map<String, Map<String, Integer>> result = new HashMap<>();
        for (Booking booking : active(now)) {
            Map<String, Integer> tenant = result.computeIfAbsent(booking.tenant(), t -> new TreeMap<>());
            if (flexible(booking).isEmpty()) {
                tenant.merge(booking.pool(), booking.quantity(), Integer::sum);
            }
        }
        return result;
    }

    /**
     * Tenant to pool to what is booked and active at {@code now} in the pool's unit: units of a static pool, GPUs of
     * a flexible pool (each booking's quantity × its profile's share of a GPU). Bookings whose window is over are
     * dropped.
     */
    public Map<String, Map<String, Double>> bookedAt(Instant now) {
        Map<String, Map<String, Double>> result = new HashMap<>();
        for (Booking booking : active(now)) {
            double units = flexible(booking)
                    .map(pool -> booking.quantity() * weight(pool, booking))
                    .orElse((double) booking.quantity());
            result.computeIfAbsent(booking.tenant(), t -> new TreeMap<>()).merge(booking.pool(), units, Double::sum);
        }
        return result;
    }

    private List<Booking> active(Instant now) {
        holding.values().removeIf(b -> !now.isBefore(b.end()));
        return holding.values().stream().filter(b -> b.activeAt(now)).toList();
    }

    private Optional<Pool> flexible(Booking booking) {
        return pools.find(booking.pool()).filter(Pool::flexible);
    }

    /** A profile the pool's model does not offer (not a booking booking-service confirms) counts as a whole GPU. */
    private static double weight(Pool pool, Booking booking) {
        try {
            return pool.gpuFraction(pool.profileOf(booking.resource()));
        } catch (IllegalArgumentException e) {
            return 1.0;
        }
    }
}
