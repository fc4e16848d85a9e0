package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.DecideApproval;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingApprovalDecided;
import io.gpuaas.events.booking.BookingEvent.BookingApprovalDecided.Outcome;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingPendingApproval;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolApproval;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Approval of large bookings, pure like the rest of the decider: a create over its pool's threshold
 * ({@link PoolApproval}) is held PENDING_APPROVAL instead of confirmed, keeping its units from everyone else until an
 * admin approves (CONFIRMED) or denies it (DENIED), or its hold runs out (DENIED, by the clock). The hold ends at
 * {@link #holdUntil}, computed from the booking and the pool catalog alone, so a replay or a rebuilt ledger gets the
 * same instant.
 */
public final class Approvals {

    private final PoolCatalog pools;

    public Approvals(PoolCatalog pools) {
        this.pools = pools;
    }

    /**
     * The decision on a create as the pool's approval policy has it: a confirmation over the threshold becomes a hold
     * (the moves made for it stay), anything else is returned as it was. An admin's own create needs no approval; one
     * whose window has begun cannot wait and is refused.
     */
    Decision gate(CreateBooking c, Decision decided, Instant now) {
        Optional<BookingConfirmed> confirmed = decided.events().stream()
                .filter(BookingConfirmed.class::isInstance)
                .map(BookingConfirmed.class::cast)
                .filter(e -> e.bookingId().equals(c.bookingId()))
                .findFirst();
        Optional<Pool> pool = pools.find(c.pool());
        if (confirmed.isEmpty()
                || pool.isEmpty()
                || pool.get().approval() == null
                || c.caller().admin()) {
            return decided;
        }
        PoolApproval policy = pool.get().approval();
        Booking booking = confirmed.get().booking();
        double size = PoolApproval.unitHours(
                pool.get(),
                pool.get().profileOf(booking.resource()),
                booking.quantity(),
                booking.start(),
                booking.end());
        if (!policy.needsApproval(size)) {
            return decided;
        }
        if (!booking.start().isAfter(now)) {
            return BookingDecider.reject(
                    c,
                    null,
                    Rejection.APPROVAL_REQUIRED,
                    "a booking over " + policy.overUnitHours() + " unit-hours on pool " + c.pool()
                            + " needs an admin's approval before its start: book it ahead, or smaller",
                    now);
        }
        Booking pending = pendingOf(booking);
        List<BookingEvent> events = new ArrayList<>();
        for (BookingEvent event : decided.events()) {
            events.add(
                    event == confirmed.get()
                            ? new BookingPendingApproval(
                                    c.requestId(),
                                    pending,
                                    size,
                                    policy.overUnitHours(),
                                    policy.holdUntil(now, booking.start()),
                                    now)
                            : event);
        }
        List<Booking> changes = decided.changes().stream()
                .map(b -> b.id().equals(pending.id()) ? pending : b)
                .toList();
        return new Decision(events, changes, decided.idempotency());
    }

    /** An admin's answer to a booking awaiting approval. */
    Decision decide(DecideApproval c, BookingLedger ledger, Instant now) {
        if (!c.caller().admin()) {
            return BookingDecider.reject(c, null, Rejection.NOT_PERMITTED, "only an admin approves bookings", now);
        }
        Optional<Booking> found = ledger.booking(c.bookingId());
        if (found.isEmpty()) {
            return BookingDecider.reject(c, null, Rejection.NOT_FOUND, "no booking " + c.bookingId(), now);
        }
        Booking booking = found.get();
        if (booking.state() != BookingState.PENDING_APPROVAL) {
            return BookingDecider.reject(
                    c,
                    booking,
                    Rejection.INVALID_STATE,
                    "booking is " + booking.state() + "; only a booking awaiting approval is approved or denied",
                    now);
        }
        Instant until = holdUntil(booking);
        if (!until.isAfter(now)) {
            return BookingDecider.reject(
                    c, booking, Rejection.INVALID_STATE, "its approval hold ran out at " + until, now);
        }
        Outcome outcome = c.approve() ? Outcome.APPROVED : Outcome.DENIED;
        Booking next = booking.withState(c.approve() ? BookingState.CONFIRMED : BookingState.DENIED, now);
        return Decision.of(
                new BookingApprovalDecided(
                        c.requestId(), next, outcome, c.caller().subject(), c.reason(), now),
                next);
    }

    /** The clock's step for a booking whose hold ran out unanswered: DENIED, its units free. */
    static BookingApprovalDecided expire(Booking pending, Instant now) {
        Booking denied = pending.withState(BookingState.DENIED, now);
        return new BookingApprovalDecided(null, denied, Outcome.EXPIRED, null, null, now);
    }

    /**
     * Until when a booking awaiting approval holds its units: its creation + its pool's hold, never past its start;
     * its start when the pool has no approval policy (any more).
     */
    public Instant holdUntil(Booking pending) {
        return pools.find(pending.pool())
                .map(Pool::approval)
                .map(policy -> policy.holdUntil(pending.createdAt(), pending.start()))
                .orElse(pending.start());
    }

    /** The notices a decision's approval outcomes are told with; written in the decision's own transaction. */
    public static List<Notice.ApprovalDecided> notices(Decision decision) {
        List<Notice.ApprovalDecided> notices = new ArrayList<>();
        for (BookingEvent event : decision.events()) {
            if (event instanceof BookingApprovalDecided d) {
                Booking b = d.booking();
                notices.add(new Notice.ApprovalDecided(
                        Notice.approvalDecidedId(b.id()),
                        b.id(),
                        b.tenant(),
                        b.namespace(),
                        b.pool(),
                        b.quantity(),
                        b.start(),
                        b.end(),
                        d.outcome(),
                        d.decidedBy(),
                        d.reason(),
                        d.time()));
            }
        }
        return notices;
    }

    /**
     * The notices telling tenants that a booking of theirs awaits approval (a create, a waitlisted request booked, a
     * series' occurrence), with its hold's end; written in the decision's own transaction, so once. A replayed answer
     * (the same idempotency key again) changes no booking and tells nothing again.
     */
    public static List<Notice.BookingAwaitingApproval> awaiting(Decision decision) {
        List<Notice.BookingAwaitingApproval> notices = new ArrayList<>();
        for (BookingEvent event : decision.events()) {
            if (event instanceof BookingPendingApproval p
                    && decision.changes().stream().anyMatch(b -> b.id().equals(p.bookingId()))) {
                Booking b = p.booking();
                notices.add(new Notice.BookingAwaitingApproval(
                        Notice.awaitingApprovalId(b.id()),
                        b.id(),
                        b.tenant(),
                        b.namespace(),
                        b.pool(),
                        b.quantity(),
                        b.start(),
                        b.end(),
                        p.unitHours(),
                        p.threshold(),
                        p.holdUntil(),
                        p.time()));
            }
        }
        return notices;
    }

    /** The confirmed booking as it waits instead: same version, state PENDING_APPROVAL. */
    private static Booking pendingOf(Booking b) {
        return new Booking(
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
                BookingState.PENDING_APPROVAL,
                b.createdBy(),
                b.createdAt(),
                b.updatedAt(),
                b.version(),
                b.placement());
    }
}
