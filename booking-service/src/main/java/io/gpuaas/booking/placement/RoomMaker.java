package io.gpuaas.booking.placement;

import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import java.time.Instant;
import java.util.Arrays;
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
 * <p>Cost on a refusal: a count per GPU of the units that fit and one read of the window per GPU to find the bookings
 * that could make room ({@link FleetPlacements#couldMakeRoom}), a count on their GPUs without each (MIG units); only
 * those whose GPUs would gain the units missing are tried in full (two placements each), at most {@link #MAX_TRIES}
 * of them: a move is a favour the decider may do, not a search it must finish, and each try is on the decision's path.
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

    /**
     * Full tries (take one off, place both) per placement before giving up on a move: each candidate that passes the
     * count has what the new booking lacks, so what can fail is placing the taken one again; past a few such failures a
     * move is unlikely, and each try costs two placements in the decision's path.
     */
    static final int MAX_TRIES = 16;

    private final FleetPlacements fleet;

    public RoomMaker(FleetPlacements fleet) {
        this.fleet = fleet;
    }

    /** Places {@code request}, moving at most one booking that starts after {@code now} if that is what it takes. */
    public Plan place(PlacementRequest request, Instant now) {
        // Unexplained first: when a move makes room, nobody reads why the plain placement was refused.
        PlacementOutcome plain = fleet.place(request, false);
        if (!(plain instanceof Refused refused) || !movable(refused.reason())) {
            return new Plan(plain, List.of());
        }
        long start = request.start().toEpochMilli();
        long end = request.end().toEpochMilli();
        int quantity = request.quantity();
        int[] fits = fleet.fitsPerGpu(request.kind(), start, end, quantity);
        int deficit = quantity - Arrays.stream(fits).sum();
        // The plain placement fits exactly when the units that fit per GPU add up to the quantity (each GPU takes
        // units at its own best start, whatever the others hold), and taking a booking off changes only its own GPUs:
        // a booking whose GPUs would not gain the missing units once it is off cannot make room and is not tried.
        int tried = 0;
        for (var could : fleet.couldMakeRoom(request.kind(), start, end, now).entrySet()) {
            String other = could.getKey();
            int gain = request.kind() instanceof UnitKind.WholeGpu
                    // Without it, each of these GPUs is empty throughout the window: one whole GPU more each.
                    ? could.getValue().size()
                    : fleet.gainWithout(other, could.getValue(), request.kind(), start, end, quantity, fits);
            if (gain < deficit) {
                continue;
            }
            Optional<Plan> moved = tryMoving(other, request, now);
            if (moved.isPresent()) {
                return moved.get();
            }
            if (++tried == MAX_TRIES) {
                break;
            }
        }
        // Every try was undone, so the fleet is as the plain placement found it: explain that refusal.
        return new Plan(fleet.noRoom(request), List.of());
    }

    private Optional<Plan> tryMoving(String other, PlacementRequest request, Instant now) {
        PlacementRequest theirs = fleet.requestOf(other).orElseThrow();
        List<UnitPlacement> was = ((Placed) fleet.release(other)).units();
        PlacementOutcome mine = fleet.place(request, false);
        if (mine instanceof Placed) {
            PlacementOutcome again = fleet.place(theirs, false);
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
