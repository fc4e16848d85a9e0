package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import java.util.Optional;
import java.util.function.Consumer;

/** Durable storage behind a {@link BookingLedger}: a Kafka Streams state store in production, a map in tests. */
public interface BookingRepository {

    Optional<Booking> find(String bookingId);

    void save(Booking booking);

    void forEach(Consumer<Booking> action);

    Optional<IdempotencyEntry> findIdempotency(String scopedKey);

    void saveIdempotency(String scopedKey, IdempotencyEntry entry);

    /** The keep hours granted to {@code bookingId}'s workloads on the day of its last grant, if any. */
    Optional<KeptHours> findKept(String bookingId);

    void saveKept(String bookingId, KeptHours kept);
}
