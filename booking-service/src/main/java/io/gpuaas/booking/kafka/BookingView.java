package io.gpuaas.booking.kafka;

import io.gpuaas.booking.model.PoolTimeline;
import io.gpuaas.events.booking.Booking;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The read side: the latest state of every booking, built from the compacted {@code bookings} topic and from the
 * decisions this instance sees, plus a timeline per pool for availability queries. A state only replaces an
 * older version, so the two feeds may arrive in any order. Eventually consistent with the decider; the decider,
 * not this view, guards capacity.
 */
@Singleton
public class BookingView {

    private final Map<String, Booking> byId = new ConcurrentHashMap<>();
    private final Map<String, PoolTimeline> timelines = new ConcurrentHashMap<>();
    private final WaitlistView waitlist = new WaitlistView();

    private final BudgetView budgets = new BudgetView();

    /** The tenants' monthly budgets, fed by the same feed. */
    public BudgetView budgets() {
        return budgets;
    }

    /** The waitlist entries, fed by the same feed. */
    public WaitlistView waitlist() {
        return waitlist;
    }

    /** Applies {@code booking} if it is newer than what the view holds. */
    public void upsert(Booking booking) {
        Booking[] replaced = new Booking[1];
        boolean[] applied = new boolean[1];
        byId.compute(booking.id(), (id, current) -> {
            if (current != null && current.version() >= booking.version()) {
                return current;
            }
            replaced[0] = current;
            applied[0] = true;
            return booking;
        });
        if (applied[0]) {
            PoolTimeline timeline = timelines.computeIfAbsent(booking.pool(), p -> new PoolTimeline());
            synchronized (timeline) {
                if (replaced[0] != null && replaced[0].state().takesCapacity()) {
                    timeline.release(replaced[0].start(), replaced[0].end(), replaced[0].quantity());
                }
                if (booking.state().takesCapacity()) {
                    timeline.reserve(booking.start(), booking.end(), booking.quantity());
                }
            }
        }
    }

    public Optional<Booking> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Collection<Booking> all() {
        return byId.values();
    }

    public int size() {
        return byId.size();
    }

    /** Runs {@code query} against the pool's timeline while no update can change it. */
    public <T> T withTimeline(String pool, Function<PoolTimeline, T> query) {
        PoolTimeline timeline = timelines.computeIfAbsent(pool, p -> new PoolTimeline());
        synchronized (timeline) {
            return query.apply(timeline);
        }
    }
}
