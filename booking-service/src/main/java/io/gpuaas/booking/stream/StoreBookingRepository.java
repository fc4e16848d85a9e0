package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.BookingRepository;
import io.gpuaas.booking.model.IdempotencyEntry;
import io.gpuaas.booking.model.KeptHours;
import io.gpuaas.events.booking.Booking;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Bookings, idempotency answers and the keep hours granted per booking and UTC day in three RocksDB stores of the
 * decision task, all backed by changelogs.
 */
final class StoreBookingRepository implements BookingRepository {

    private final KeyValueStore<String, Booking> bookings;
    private final KeyValueStore<String, IdempotencyEntry> keys;
    private final KeyValueStore<String, KeptHours> kept;

    StoreBookingRepository(
            KeyValueStore<String, Booking> bookings,
            KeyValueStore<String, IdempotencyEntry> keys,
            KeyValueStore<String, KeptHours> kept) {
        this.bookings = bookings;
        this.keys = keys;
        this.kept = kept;
    }

    @Override
    public Optional<KeptHours> findKept(String bookingId) {
        return Optional.ofNullable(kept.get(bookingId));
    }

    @Override
    public void saveKept(String bookingId, KeptHours hours) {
        kept.put(bookingId, hours);
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
     * Forgets idempotency answers decided before {@code cutoffMillis}, finished (cancelled or completed) bookings that
     * ended before it and keep hours of UTC days before its day; returns how many entries went. Keys are collected first because a store
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
        var cutoffDay =
                Instant.ofEpochMilli(cutoffMillis).atZone(ZoneOffset.UTC).toLocalDate();
        List<String> oldKept = new ArrayList<>();
        try (KeyValueIterator<String, KeptHours> all = kept.all()) {
            all.forEachRemaining(kv -> {
                if (kv.value.day().isBefore(cutoffDay)) {
                    oldKept.add(kv.key);
                }
            });
        }
        oldKeys.forEach(keys::delete);
        oldBookings.forEach(bookings::delete);
        oldKept.forEach(kept::delete);
        return oldKeys.size() + oldBookings.size() + oldKept.size();
    }
}
