package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.BookingRepository;
import io.gpuaas.booking.model.IdempotencyEntry;
import io.gpuaas.events.booking.Booking;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Bookings and idempotency answers in two RocksDB stores of the decision task, both backed by changelogs. */
final class StoreBookingRepository implements BookingRepository {

    private final KeyValueStore<String, Booking> bookings;
    private final KeyValueStore<String, IdempotencyEntry> keys;

    StoreBookingRepository(KeyValueStore<String, Booking> bookings, KeyValueStore<String, IdempotencyEntry> keys) {
        this.bookings = bookings;
        this.keys = keys;
    }

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
        try (KeyValueIterator<String, Booking> all = bookings.all()) {
            all.forEachRemaining(kv -> action.accept(kv.value));
        }
    }

    @Override
    public Optional<IdempotencyEntry> findIdempotency(String scopedKey) {
        return Optional.ofNullable(keys.get(scopedKey));
    }

    @Override
    public void saveIdempotency(String scopedKey, IdempotencyEntry entry) {
        keys.put(scopedKey, entry);
    }

    /**
     * Forgets idempotency answers decided before {@code cutoffMillis} and finished (cancelled or completed)
     * bookings that ended before it; returns how many entries went. Keys are collected first because a store
     * must not change under an open iterator.
     */
    int expire(long cutoffMillis) {
        List<String> oldKeys = new ArrayList<>();
        try (KeyValueIterator<String, IdempotencyEntry> all = keys.all()) {
            all.forEachRemaining(kv -> {
                if (kv.value.decidedAt().toEpochMilli() < cutoffMillis) {
                    oldKeys.add(kv.key);
                }
            });
        }
        List<String> oldBookings = new ArrayList<>();
        forEach(b -> {
            if (!b.state().takesCapacity() && b.end().toEpochMilli() < cutoffMillis) {
                oldBookings.add(b.id());
            }
        });
        oldKeys.forEach(keys::delete);
        oldBookings.forEach(bookings::delete);
        return oldKeys.size() + oldBookings.size();
    }
}
