package io.gpuaas.booking.model;

import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.notice.Notice;
import java.util.List;
import java.util.Optional;

/**
 * What one look at a tracked booking decided: its new tracking state and what to write, all in one transaction.
 *
 * @param tracked the booking's tracking state after the step (equal to the one before when nothing changed)
 * @param notices notices to send, keyed by booking id
 * @param release the no-show release command to send, keyed by pool, if its time has come
 */
public record LifecycleStep(TrackedBooking tracked, List<Notice> notices, Optional<ReleaseBooking> release) {

    public LifecycleStep {
        notices = List.copyOf(notices);
    }

    static LifecycleStep nothing(TrackedBooking tracked) {
        return new LifecycleStep(tracked, List.of(), Optional.empty());
    }
}
