package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import java.time.Instant;
import java.util.Optional;

/** What the no-show rule asks of the Workloads booking-service has read from {@code gpuaas.kueue-workloads}. */
@FunctionalInterface
public interface WorkloadPresence {

    /**
     * Whether a Workload of the booking's tenant was admitted or pending on the booking's pool (its flavor and
     * resource; {@link WorkloadCells#ofBooking}) at any time from {@code since} on, now included.
     */
    boolean seenSince(Booking booking, Instant since);

    /**
     * How far the feed of Workloads is known to be complete: the oldest of the newest {@code FeedWatermark}s of the
     * partitions of {@code gpuaas.kueue-workloads} read so far, or empty when none was read.
     */
    default Optional<Instant> feedWatermark() {
        return Optional.empty();
    }
}
