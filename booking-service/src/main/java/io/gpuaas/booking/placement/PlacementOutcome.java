package io.gpuaas.booking.placement;

import java.time.Instant;
import java.util.List;

/** What a change to a fleet's placements came to: the booking's units as they now stand, or why nothing changed. */
public sealed interface PlacementOutcome permits PlacementOutcome.Placed, PlacementOutcome.Refused {

    /**
     * The change was made.
     *
     * @param bookingId the booking
     * @param units     where each unit of the booking runs (for a release: ran), in placement order
     */
    record Placed(String bookingId, List<UnitPlacement> units) implements PlacementOutcome {

        /** Copies the units. */
        public Placed {
            units = List.copyOf(units);
        }
    }

    /**
     * Nothing changed.
     *
     * @param bookingId    the booking
     * @param reason       the rule that refused it
     * @param message      what a user reads
     * @param blockedFrom  for {@link PlacementRefusal#NO_ROOM}: start of the earliest interval of the window that
     *                     lacks room, else null
     * @param blockedUntil end of that interval, else null
     */
    record Refused(String bookingId, PlacementRefusal reason, String message, Instant blockedFrom, Instant blockedUntil)
            implements PlacementOutcome {

        static Refused of(String bookingId, PlacementRefusal reason, String message) {
            return new Refused(bookingId, reason, message, null, null);
        }
    }
}
