package io.gpuaas.booking.stream;

import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.notice.Notice;

/** Told what the lifecycle wrote (metrics); called on the stream thread, before the transaction commits. */
public interface LifecycleOutcomes {

    /** A notice went to {@code gpuaas.notices}. */
    void noticed(Notice notice);

    /** A no-show release went to {@code gpuaas.booking-commands}. */
    void releaseRequested(ReleaseBooking release);

    /** Outcomes nobody listens to (tests, benchmarks). */
    LifecycleOutcomes IGNORED = new LifecycleOutcomes() {
        @Override
        public void noticed(Notice notice) {}

        @Override
        public void releaseRequested(ReleaseBooking release) {}
    };
}
