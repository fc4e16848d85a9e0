package io.gpuaas.booking.model;

import io.gpuaas.booking.placement.FleetPlacements;
import io.gpuaas.booking.placement.PlacementOutcome;
import io.gpuaas.booking.placement.PlacementOutcome.Placed;
import io.gpuaas.booking.placement.PlacementOutcome.Refused;
import io.gpuaas.booking.placement.PlacementRequest;
import io.gpuaas.booking.placement.RoomMaker;
import io.gpuaas.booking.placement.UnitKind;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent.BookingMoved;
import io.gpuaas.events.booking.Interval;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.pool.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The capacity rules of a flexible pool: where the units go. Asks the pool's {@link FleetPlacements} as a what-if
 * (placed, then taken off again, so the decider stays a function and the ledger changes only when the decision is
 * applied) and, when a plain placement is refused, lets {@link RoomMaker} move one booking that has not started.
 * A refusal has the shape of a static pool's: {@code CAPACITY} with the first blocked interval and the earliest start.
 */
final class FlexibleDecisions {

    /**
     * Where a booking's units go, or why they do not.
     *
     * @param refusal   the rejection, or null
     * @param placement the units, or null when refused or unchanged
     * @param moves     bookings moved to make room, each with its new state, in order
     */
    record Placement(Decision refusal, List<PlacedUnit> placement, List<BookingMoved> moves) {

        static Placement refused(Decision refusal) {
            return new Placement(refusal, null, List.of());
        }

        /** {@code decision} preceded by the moves: their events first, their new states first. */
        Decision after(Decision decision) {
            if (moves.isEmpty()) {
                return decision;
            }
            List<io.gpuaas.events.booking.BookingEvent> events = new ArrayList<>(moves);
            events.addAll(decision.events());
            List<Booking> changes =
                    new ArrayList<>(moves.stream().map(BookingMoved::booking).toList());
            changes.addAll(decision.changes());
            return new Decision(events, changes, decision.idempotency());
        }
    }

    private final BookingPolicy policy;
    private final CapacityCheck capacity;

    FlexibleDecisions(BookingPolicy policy, CapacityCheck capacity) {
        this.policy = policy;
        this.capacity = capacity;
    }

    /** The tenant cap, then a place on the fleet for a new booking, moving at most one booking not yet started. */
    Placement create(CreateBooking c, Pool pool, Instant start, Instant end, BookingLedger ledger, Instant now) {
        int weight = c.quantity() * PoolUnits.weight(pool, c.profile());
        Optional<Decision> overCap = capacity.tenantCap(c, pool, null, 0, start, end, weight, ledger, now);
        if (overCap.isPresent()) {
            return Placement.refused(overCap.get());
        }
        FleetPlacements fleet = fleetOf(pool, ledger);
        UnitKind kind = FlexibleFleets.kindOf(c.profile());
        PlacementRequest request = new PlacementRequest(c.bookingId(), kind, c.quantity(), start, end);
        RoomMaker.Plan plan = new RoomMaker(fleet).place(request, now);
        return switch (plan.outcome()) {
            case Refused refused -> Placement.refused(noRoom(c, pool, c.profile(), request, refused, fleet, now, true));
            case Placed placed -> {
                fleet.release(c.bookingId());
                List<BookingMoved> moves = new ArrayList<>();
                for (RoomMaker.Move move : plan.moves()) {
                    Booking before = ledger.booking(move.bookingId()).orElseThrow();
                    fleet.release(move.bookingId());
                    restore(fleet, before, pool);
                    Booking after = before.withPlacement(FlexibleFleets.placed(move.to()), now);
                    moves.add(new BookingMoved(after, before.placement(), c.bookingId(), now));
                }
                yield new Placement(null, FlexibleFleets.placed(placed.units()), moves);
            }
        };
    }

    /**
     * The tenant cap, then room for a booking's new window {@code [start, end)}: a longer end on the units it has
     * (extended in place), a shorter one always, a new start anywhere the rule puts it (the booking has not started).
     * The placement is null when the units stay.
     */
    Placement change(
            BookingCommand c,
            Pool pool,
            Booking booking,
            Instant start,
            Instant end,
            BookingLedger ledger,
            Instant now) {
        String profile = pool.profileOf(booking.resource());
        int weight = booking.quantity() * PoolUnits.weight(pool, profile);
        Optional<Decision> overCap = capacity.tenantCap(c, pool, booking, weight, start, end, weight, ledger, now);
        if (overCap.isPresent()) {
            return Placement.refused(overCap.get());
        }
        FleetPlacements fleet = fleetOf(pool, ledger);
        if (start.equals(booking.start())) {
            if (!end.isAfter(booking.end())) {
                return new Placement(null, null, List.of());
            }
            PlacementOutcome extended = fleet.extend(booking.id(), end);
            if (extended instanceof Refused refused) {
                PlacementRequest request = FlexibleFleets.request(booking, pool, end);
                return Placement.refused(noRoom(c, pool, profile, request, refused, fleet, now, false));
            }
            fleet.shorten(booking.id(), booking.end());
            return new Placement(null, null, List.of());
        }
        fleet.release(booking.id());
        PlacementRequest request =
                new PlacementRequest(booking.id(), FlexibleFleets.kindOf(profile), booking.quantity(), start, end);
        PlacementOutcome moved = fleet.place(request);
        if (moved instanceof Placed) {
            fleet.release(booking.id());
        }
        restore(fleet, booking, pool);
        return switch (moved) {
            case Refused refused -> Placement.refused(noRoom(c, pool, profile, request, refused, fleet, now, false));
            case Placed placed -> new Placement(null, FlexibleFleets.placed(placed.units()), List.of());
        };
    }

    /** {@code booking} with {@code placement}, the same version: one change, one version. */
    static Booking withPlacement(Booking b, List<PlacedUnit> placement) {
        return placement == b.placement()
                ? b
                : new Booking(
                        b.id(),
                        b.tenant(),
                        b.namespace(),
                        b.pool(),
                        b.flavor(),
                        b.resource(),
                        b.quantity(),
                        b.start(),
                        b.end(),
                        b.purpose(),
                        b.state(),
                        b.createdBy(),
                        b.createdAt(),
                        b.updatedAt(),
                        b.version(),
                        placement);
    }

    private static FleetPlacements fleetOf(Pool pool, BookingLedger ledger) {
        return ledger.fleet(pool.id())
                .orElseThrow(() -> new IllegalStateException("the ledger has no fleet for flexible pool " + pool.id()));
    }

    /** Puts a booking taken off for a what-if back on the units it records. */
    private static void restore(FleetPlacements fleet, Booking booking, Pool pool) {
        PlacementOutcome back = fleet.restore(
                FlexibleFleets.request(booking, pool, booking.end()), FlexibleFleets.units(booking.placement()));
        if (back instanceof Refused refused) {
            throw new IllegalStateException("booking " + booking.id() + " cannot go back where it was: " + refused);
        }
    }

    /**
     * {@code CAPACITY} with the first interval where too few units fit (for a fragmented fleet, the whole window),
     * {@code reserved} being the units of the kind asked for that do not fit there, and for a new booking the
     * earliest aligned start at which they all would.
     */
    private Decision noRoom(
            BookingCommand c,
            Pool pool,
            String profile,
            PlacementRequest request,
            Refused refused,
            FleetPlacements fleet,
            Instant now,
            boolean searchEarliest) {
        Instant from = refused.blockedFrom() != null ? refused.blockedFrom() : request.start();
        Instant until = refused.blockedUntil() != null ? refused.blockedUntil() : request.end();
        int most = PoolUnits.capacity(pool, profile);
        int fit = fleet.unitsThatFit(request.kind(), from, until);
        Interval blocked = new Interval(from, until, Math.max(0, most - fit));
        Instant earliest = searchEarliest ? earliestStart(fleet, request, now) : null;
        String message = refused.reason() + ": " + refused.message();
        return BookingDecider.rejectCapacity(c, pool.id(), message, List.of(blocked), earliest, now);
    }

    /**
     * The first aligned start after the refused one at which the units fit on the fleet as it stands, within the
     * policy's advance; null when none does. The fleet tries boundaries of bookings, some of which (a book-now's
     * start, a release) are off the alignment: those are rounded up and tried again.
     */
    private Instant earliestStart(FleetPlacements fleet, PlacementRequest request, Instant now) {
        Duration length = Duration.between(request.start(), request.end());
        Instant horizon = now.plus(policy.maxAdvance()).minus(length);
        Instant from = policy.alignUp(request.start());
        while (!from.isAfter(horizon)) {
            Optional<Instant> found = fleet.earliestStart(request.kind(), request.quantity(), length, from, horizon);
            if (found.isEmpty()) {
                return null;
            }
            Instant t = found.get();
            if (!policy.isAligned(t)) {
                from = policy.alignUp(t);
            } else if (t.equals(request.start())) {
                from = t.plus(policy.alignment());
            } else {
                return t;
            }
        }
        return null;
    }
}
