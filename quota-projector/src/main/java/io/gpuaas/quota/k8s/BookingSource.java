package io.gpuaas.quota.k8s;

import io.gpuaas.events.booking.Booking;
import java.util.Collection;

/** The bookings the plan is computed from (the replicated compacted bookings topic in production). */
@FunctionalInterface
public interface BookingSource {

    Collection<Booking> bookings();
}
