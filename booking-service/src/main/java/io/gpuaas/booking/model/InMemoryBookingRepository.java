package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** A {@link BookingRepository} in plain maps: for tests, benchmarks and what-if checks; nothing durable. */
public final class InMemoryBookingRepository implements BookingRepository {

    private final Map<String, Booking> bookings = new LinkedHashMap<>();
    private final Map<String, IdempotencyEntry> keys = new LinkedHashMap<>();
    private final Map<String, KeptHours> kept = new LinkedHashMap<>();

    @Override
    public Optional<Booking> find(String bookingId) {
        return Optional.ofNullable(bookings.get(bookingId));
    }

    @Override
    public void save(Booking booking) {
        bookings.put(booking.id(), booking);
    }

    @Override
    public void forEach(Consumer<Booking> action) {
        bookings.values().forEach(action);
    }

    @Override
    public Optional<IdempotencyEntry> findIdempotency(String scopedKey) {
        return Optional.ofNullable(keys.get(scopedKey));
    }

    @Override
    public void saveIdempotency(String scopedKey, IdempotencyEntry entry) {
        keys.put(scopedKey, entry);
    }

    @Override
    public Optional<KeptHours> findKept(String bookingId) {
        return Optional.ofNullable(kept.get(bookingId));
    }

    @Override
    public void saveKept(String bookingId, KeptHours hours) {
        kept.put(bookingId, hours);
    }
}
