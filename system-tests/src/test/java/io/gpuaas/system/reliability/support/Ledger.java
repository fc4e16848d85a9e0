package io.gpuaas.system.reliability.support;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.reclaim.ReclaimEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The system's record of truth read back from Kafka: bookings (latest state per id) and reclaim steps. */
public final class Ledger {

    private Ledger() {}

    /** Latest state per booking id on {@code gpuaas.bookings}; unreadable records are skipped. */
    public static Map<String, Booking> bookings(KafkaProbe kafka) {
        String topic = Topics.BOOKINGS.name(Topics.DEFAULT_PREFIX);
        Map<String, Booking> latest = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(topic)) {
            try {
                Booking b = r.value() == null || r.value().length == 0
                        ? null
                        : Topics.BOOKINGS.valueSerde().deserializer().deserialize(topic, r.headers(), r.value());
                if (b != null
                        && (latest.get(b.id()) == null || latest.get(b.id()).version() <= b.version())) {
                    latest.put(b.id(), b);
                }
            } catch (RuntimeException poison) {
                // records the poison test wrote
            }
        }
        return latest;
    }

    /**
     * Per pool, the largest number of units held at once by bookings that are not cancelled; a released booking held
     * its units until it was released ({@code updatedAt}), not to the end it was booked with.
     */
    public static Map<String, Integer> peakPerPool(Iterable<Booking> bookings) {
        Map<String, TreeMap<Instant, Integer>> deltas = new HashMap<>();
        for (Booking b : bookings) {
            if (b.state() == BookingState.CANCELLED) {
                continue;
            }
            TreeMap<Instant, Integer> d = deltas.computeIfAbsent(b.pool(), p -> new TreeMap<>());
            d.merge(b.start(), b.quantity(), Integer::sum);
            Instant heldUntil = b.state() == BookingState.RELEASED ? b.updatedAt() : b.end();
            d.merge(heldUntil, -b.quantity(), Integer::sum);
        }
        Map<String, Integer> peak = new TreeMap<>();
        deltas.forEach((pool, d) -> {
            int level = 0;
            int max = 0;
            for (int delta : d.values()) {
                level += delta;
                max = Math.max(max, level);
            }
            peak.put(pool, max);
        });
        return peak;
    }

    /** Units active at {@code now} per flavor for one tenant. */
    public static Map<String, Long> activeQuota(Iterable<Booking> bookings, String tenant, Instant now) {
        Map<String, Long> out = new TreeMap<>();
        for (Booking b : bookings) {
            if (b.tenant().equals(tenant) && b.activeAt(now)) {
                out.merge(b.flavor(), (long) b.quantity(), Long::sum);
            }
        }
        return out;
    }

    /** Reclaim steps per workload key, in topic order. */
    public static Map<String, List<ReclaimEvent>> reclaims(KafkaProbe kafka) {
        String topic = Topics.RECLAIM_EVENTS.name(Topics.DEFAULT_PREFIX);
        Map<String, List<ReclaimEvent>> out = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readAll(topic)) {
            try {
                ReclaimEvent e =
                        Topics.RECLAIM_EVENTS.valueSerde().deserializer().deserialize(topic, r.headers(), r.value());
                if (e != null) {
                    out.computeIfAbsent(new String(r.key()), k -> new ArrayList<>())
                            .add(e);
                }
            } catch (RuntimeException poison) {
                // records the poison test wrote
            }
        }
        return out;
    }

    /** Workloads reclaimed twice without a resume in between. */
    public static List<String> doubleReclaims(Map<String, List<ReclaimEvent>> steps) {
        List<String> out = new ArrayList<>();
        steps.forEach((key, events) -> {
            boolean reclaimed = false;
            for (ReclaimEvent e : events) {
                if (e instanceof ReclaimEvent.Reclaimed) {
                    if (reclaimed) {
                        out.add(key);
                    }
                    reclaimed = true;
                } else if (e instanceof ReclaimEvent.Resumed) {
                    reclaimed = false;
                }
            }
        });
        return out;
    }
}
