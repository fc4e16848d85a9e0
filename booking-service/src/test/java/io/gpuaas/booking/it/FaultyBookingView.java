package io.gpuaas.booking.it;

import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.events.booking.Booking;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The test seam of the fault ITs: the read view with a switch that makes every update throw, so the booking feed's
 * handler fails inside the replica as a broken view would. Only in contexts started with {@value #ENABLED}.
 */
@Singleton
@Replaces(BookingView.class)
@Requires(property = FaultyBookingView.ENABLED, value = "true")
class FaultyBookingView extends BookingView {

    static final String ENABLED = "gpuaas.test.faulty-view";

    private final AtomicBoolean failing = new AtomicBoolean();

    void failing(boolean on) {
        failing.set(on);
    }

    @Override
    public void upsert(Booking booking) {
        if (failing.get()) {
            throw new IllegalStateException("the view refuses " + booking.id() + " (test fault)");
        }
        super.upsert(booking);
    }
}
