package io.gpuaas.booking.placement;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * Places a booking that fits only if one booking that has not started yet moves: the step after a plain
 * {@link FleetPlacements#place} refuses. Tries each booking holding units in the window and starting after
 * {@code now}, in id order: takes it off, places the new booking, places the taken one again by the rule (same kind,
 * quantity and window, other GPUs or slices); the first that works is kept, every other try is undone exactly. At
 * most one booking moves, and only before its start, so nobody's running instance changes. When the taken booking
 * lands back on the very units it had, nothing moved: the new booking's placement is returned without a move.
 *
 * <p>Cost on a refusal: {@code O(M)} tries of two placements each, for {@code M} bookings overlapping the window.
 */
public final class RoomMaker {

    /**
     * One booking moved before its start.
     *
     * @param bookingId the booking
     * @param from      where its units were
     * @param to        where they are now
     */
    public record Move(String bookingId, List<UnitPlacement> from, List<UnitPlacement> to) {

        /** Copies the units. */
        public Move {
            from = List.copyOf(from);
            to = List.copyOf(to);
        }
    }

    /**
     * What placing came to, and the moves it needs (empty when it fitted as it was or was refused).
     *
     * @param outcome the new booking's placement, or the plain refusal
     * @param moves   the bookings moved to make room
     */
    public record Plan(PlacementOutcome outcome, List<Move> moves) {

        /** Copies the moves. */
        public Plan {
            moves = List.copyOf(moves);
        }
    }

    private final FleetPlacements fleet;

    public RoomMaker(FleetPlacements fleet) {
        this.fleet = fleet;
    }

    /** Places {@code request}, moving at most one booking that starts after {@code now} if that is what it takes. */
    public Plan place(PlacementRequest request, Instant now) {
        PlacementOutcome plain = fleet.place(request);
        if (!(plain instanceof Refused refused) || !movable(refused.reason())) {
            return new Plan(plain, List.of());
        }
        for (String other : fleet.bookingsDuring(request.start(), request.end())) {
            Optional<Plan> moved = tryMoving(other, request, now);
            if (moved.isPresent()) {
                return moved.get();
            }
        }
        return new Plan(plain, List.of());
    }

    private Optional<Plan> tryMoving(String other, PlacementRequest request, Instant now) {
        PlacementRequest theirs = fleet.requestOf(other).orElseThrow();
        if (!theirs.start().isAfter(now)) {
            return Optional.empty();
        }
        List<UnitPlacement> was = ((Placed) fleet.release(other)).units();
        PlacementOutcome mine = fleet.place(request);
        if (mine instanceof Placed) {
            PlacementOutcome again = fleet.place(theirs);
            if (again instanceof Placed to) {
                // Back on the very units it had: no one moved (the plain, unit-at-a-time placement missed this
                // fit), so there is no move to announce to the other booking's owner.
                List<Move> moves = sameUnits(was, to.units()) ? List.of() : List.of(new Move(other, was, to.units()));
                return Optional.of(new Plan(mine, moves));
            }
            fleet.release(request.bookingId());
        }
        fleet.reinstate(theirs, was);
        return Optional.empty();
    }

    // The same GPUs and slices, in whatever order the units were placed.
    static boolean sameUnits(List<UnitPlacement> from, List<UnitPlacement> to) {
        return from.size() == to.size() && new HashSet<>(from).equals(new HashSet<>(to));
    }

    private static boolean movable(PlacementRefusal reason) {
        return reason == PlacementRefusal.NO_ROOM || reason == PlacementRefusal.FRAGMENTED;
    }
}
