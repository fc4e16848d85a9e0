package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import java.time.Instant;

/** What the no-show rule asks of the Workloads booking-service has read from {@code gpuaas.kueue-workloads}. */
@FunctionalInterface
public interface WorkloadPresence {

    /**
     * Whether a Workload of the booking's tenant was admitted or pending on the booking's pool (its flavor and
     * resource; {@link WorkloadCells#ofBooking}) at any time from {@code since} on, now included.
     */
    boolean seenSince(Booking booking, Instant since);
}
