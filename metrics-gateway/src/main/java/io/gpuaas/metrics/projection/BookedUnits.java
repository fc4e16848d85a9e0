package io.gpuaas.metrics.projection;

import io.gpuaas.events.booking.Booking;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bookings that hold capacity, from the compacted {@code gpuaas.bookings} topic. Which of them are active is
 * decided when asked, so a window boundary shows up on the next scrape without any timer.
 */
public final class BookedUnits {

    private final Map<String, Booking> holding = new ConcurrentHashMap<>();

    /** Applies the record at {@code bookingId}; a null booking is a tombstone. */
    public void apply(String bookingId, Booking booking) {
        if (booking == null || !booking.state().holdsCapacity()) {
            holding.remove(bookingId);
        } else {
            holding.put(bookingId, booking);
        }
    }

    /** Tenant to pool to units booked and active at {@code now}; bookings whose window is over are dropped. */
    public Map<String, Map<String, Integer>> activeAt(Instant now) {
        Map<String, Map<String, Integer>> result = new HashMap<>();
        holding.values().removeIf(b -> !now.isBefore(b.end()));
        for (Booking booking : holding.values()) {
            if (booking.activeAt(now)) {
                result.computeIfAbsent(booking.tenant(), t -> new TreeMap<>())
                        .merge(booking.pool(), booking.quantity(), Integer::sum);
            }
        }
        return result;
    }
}
