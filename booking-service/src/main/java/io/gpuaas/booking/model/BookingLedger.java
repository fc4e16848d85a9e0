package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The decision state of the pools one writer owns: bookings in a {@link BookingRepository}, plus indexes derived
 * from them and kept in memory (rebuilt by {@link #rebuild()} whenever the writer (re)starts): a timeline per
 * pool, a timeline per pool and tenant (for the tenant cap), and a time index of the next lifecycle boundary of
 * every booking so the clock only looks at bookings that are due.
 */
public final class BookingLedger {

    private final BookingRepository repository;
    private final Map<String, PoolTimeline> pools = new HashMap<>();
    private final Map<String, PoolTimeline> tenants = new HashMap<>();
    private final TreeMap<Long, Set<String>> due = new TreeMap<>();

    public BookingLedger(BookingRepository repository) {
        this.repository = repository;
    }

    /** Rebuilds every in-memory index from the repository. */
    public BookingLedger rebuild() {
        pools.clear();
        tenants.clear();
        due.clear();
        repository.forEach(this::index);
        return this;
    }

    public Optional<Booking> booking(String bookingId) {
        return repository.find(bookingId);
    }

    public Optional<IdempotencyEntry> idempotency(String scopedKey) {
        return repository.findIdempotency(scopedKey);
    }

    /** Reserved units of all bookings on {@code pool}; read-only for callers. */
    public PoolTimeline timeline(String pool) {
        return pools.computeIfAbsent(pool, p -> new PoolTimeline());
    }

    /** Reserved units of one tenant on {@code pool}; read-only for callers. */
    public PoolTimeline tenantTimeline(String pool, String tenant) {
        return tenants.computeIfAbsent(pool + '\u0000' + tenant, p -> new PoolTimeline());
    }

    /** Stores every change of {@code decision} and updates the indexes. */
    public void apply(Decision decision) {
        decision.changes().forEach(this::apply);
        if (decision.idempotency() != null) {
            repository.saveIdempotency(
                    decision.idempotency().scopedKey(), decision.idempotency().entry());
        }
    }

    /** Stores one new booking state and updates the indexes. */
    public void apply(Booking next) {
        repository.find(next.id()).ifPresent(this::unindex);
        repository.save(next);
        index(next);
    }

    /** Bookings whose next lifecycle boundary is at or before {@code now}, earliest first. */
    public List<Booking> dueAt(Instant now) {
        List<Booking> out = new ArrayList<>();
        for (Set<String> ids : due.headMap(now.toEpochMilli(), true).values()) {
            for (String id : ids) {
                repository.find(id).ifPresent(out::add);
            }
        }
        return out;
    }

    private void index(Booking booking) {
        if (!booking.state().holdsCapacity()) {
            return;
        }
        timeline(booking.pool()).reserve(booking.start(), booking.end(), booking.quantity());
        tenantTimeline(booking.pool(), booking.tenant()).reserve(booking.start(), booking.end(), booking.quantity());
        due.computeIfAbsent(nextBoundary(booking), t -> new LinkedHashSet<>()).add(booking.id());
    }

    private void unindex(Booking booking) {
        if (!booking.state().holdsCapacity()) {
            return;
        }
        timeline(booking.pool()).release(booking.start(), booking.end(), booking.quantity());
        tenantTimeline(booking.pool(), booking.tenant()).release(booking.start(), booking.end(), booking.quantity());
        long at = nextBoundary(booking);
        Set<String> ids = due.get(at);
        if (ids != null && ids.remove(booking.id()) && ids.isEmpty()) {
            due.remove(at);
        }
    }

    private static long nextBoundary(Booking booking) {
        return (booking.state() == BookingState.CONFIRMED ? booking.start() : booking.end()).toEpochMilli();
    }
}
