package io.gpuaas.booking.model;

import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.BookingWaitlisted;
import io.gpuaas.events.booking.BookingEvent.WaitlistEnded;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.booking.WaitlistEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The waitlist's rules, beside {@link BookingDecider}: a create that asked to wait ({@link CreateBooking#waits()})
 * and was refused for capacity is booked at the earliest start that fits up to its latest start, else it waits
 * ({@link BookingWaitlisted}); when a decision frees capacity on a pool, the entries waiting there are tried in
 * arrival order and each that fits is booked under its own id ({@link WaitlistEnded} BOOKED, then the decider's own
 * confirmation); at its latest start an entry expires. Every try is the decider's own create decision on a command
 * rebuilt from the entry, so a waitlisted booking passes exactly the checks a direct one does.
 */
final class Waitlist {

    /** The decider's create rule. */
    @FunctionalInterface
    interface Creator {
        Decision create(CreateBooking command, BookingLedger ledger, Instant now);
    }

    private final BookingPolicy policy;
    private final Creator creator;

    Waitlist(BookingPolicy policy, Creator creator) {
        this.policy = policy;
        this.creator = creator;
    }

    /**
     * The answer to {@code c}, given what the decider {@code decided}: unchanged unless {@code c} waits and was refused
     * for capacity; then booked at the refusal's earliest start if that is no later than its latest start, else put on
     * the waitlist.
     */
    Decision admit(CreateBooking c, Decision decided, BookingLedger ledger, Instant now) {
        Optional<BookingRejected> refused = capacityRefusal(decided);
        if (!c.waits() || refused.isEmpty()) {
            return decided;
        }
        Instant earliest = c.startsNow() ? now : c.start();
        Optional<String> wrong = latestStartProblem(c.latestStart(), earliest, now);
        if (wrong.isPresent()) {
            return BookingDecider.reject(c, null, Rejection.INVALID_WAITLIST, wrong.get(), now);
        }
        if (ledger.waitlist().find(c.bookingId()).isPresent()) {
            return BookingDecider.reject(
                    c, null, Rejection.BOOKING_EXISTS, "booking " + c.bookingId() + " is waiting", now);
        }
        Duration length = c.duration() != null ? c.duration() : Duration.between(earliest, c.end());
        Instant later = refused.get().earliestStart();
        if (later != null && !later.isAfter(c.latestStart())) {
            Decision atLater = creator.create(command(c, later, length), ledger, now);
            if (booked(atLater)) {
                return atLater;
            }
        }
        WaitlistEntry entry = new WaitlistEntry(
                c.bookingId(),
                c.requestId(),
                c.caller().tenant(),
                c.namespace(),
                c.pool(),
                c.profile(),
                c.quantity(),
                earliest,
                c.latestStart(),
                length,
                c.purpose(),
                c.caller().subject(),
                WaitlistEntry.State.WAITING,
                now,
                now);
        return Decision.of(
                new BookingWaitlisted(c.requestId(), entry, refused.get().conflicts(), now), null);
    }

    /**
     * What is wrong with waiting until {@code latestStart} for a window from {@code earliest}: before it, or later than
     * the policy lets anyone book ahead (an entry must not wait for ever).
     */
    Optional<String> latestStartProblem(Instant latestStart, Instant earliest, Instant now) {
        if (latestStart.isBefore(earliest)) {
            return Optional.of("waitlist.latestStart " + latestStart + " is before the start " + earliest);
        }
        if (latestStart.isAfter(now.plus(policy.maxAdvance()))) {
            return Optional.of("waitlist.latestStart is more than " + policy.maxAdvance() + " ahead");
        }
        return Optional.empty();
    }

    /** A cancel naming a waiting entry the caller may see (its tenant, an admin or the system) ends it. */
    Optional<Decision> cancel(CancelBooking c, BookingLedger ledger, Instant now) {
        return ledger.waitlist()
                .find(c.bookingId())
                .filter(e -> c.caller().admin()
                        || c.caller().system()
                        || e.tenant().equals(c.caller().tenant()))
                .map(e -> Decision.of(
                        new WaitlistEnded(c.requestId(), e.withState(WaitlistEntry.State.CANCELLED, now), now), null));
    }

    /** The entries whose latest start has come, ended as EXPIRED. */
    List<BookingEvent> expire(BookingLedger ledger, Instant now) {
        List<BookingEvent> out = new ArrayList<>();
        for (WaitlistEntry entry : ledger.waitlist().expiringAt(now)) {
            out.add(new WaitlistEnded(null, entry.withState(WaitlistEntry.State.EXPIRED, now), now));
        }
        return out;
    }

    /**
     * After {@code freeing} has been applied to {@code ledger}: books, on every pool it freed capacity on, the waiting
     * entries that now fit, in arrival order, applying each booking to {@code ledger} before trying the next (so the
     * next sees it: never overbooked). A function of the ledger and {@code now} alone, so a replay decides the same.
     */
    List<Decision> settle(Decision freeing, BookingLedger ledger, Instant now) {
        List<Decision> out = new ArrayList<>();
        for (String pool : freedPools(freeing)) {
            for (WaitlistEntry entry : ledger.waitlist().waiting(pool)) {
                Optional<Decision> booked = book(entry, ledger, now);
                booked.ifPresent(d -> {
                    ledger.apply(d);
                    out.add(d);
                });
            }
        }
        return out;
    }

    /** The pools on which {@code decision} gave capacity back (sorted, so the order is the same on a replay). */
    static TreeSet<String> freedPools(Decision decision) {
        TreeSet<String> pools = new TreeSet<>();
        for (BookingEvent event : decision.events()) {
            switch (event) {
                case BookingEvent.BookingCancelled e -> pools.add(e.booking().pool());
                case BookingEvent.BookingReleased e -> pools.add(e.booking().pool());
                case BookingEvent.BookingExtended e -> pools.add(e.booking().pool());
                case BookingEvent.BookingMoved e -> pools.add(e.booking().pool());
                default -> {}
            }
        }
        return pools;
    }

    /** {@code entry} booked now if it fits at its earliest start (from now) or at the first later start that fits. */
    private Optional<Decision> book(WaitlistEntry entry, BookingLedger ledger, Instant now) {
        if (entry.latestStart().isBefore(now)) {
            return Optional.empty(); // the clock expires it
        }
        CreateBooking first = command(entry, entry.earliestStart().isAfter(now) ? entry.earliestStart() : null);
        Decision decided = creator.create(first, ledger, now);
        if (!booked(decided)) {
            Instant later =
                    capacityRefusal(decided).map(BookingRejected::earliestStart).orElse(null);
            if (later == null || later.isAfter(entry.latestStart())) {
                return Optional.empty();
            }
            decided = creator.create(command(entry, later), ledger, now);
            if (!booked(decided)) {
                return Optional.empty();
            }
        }
        List<BookingEvent> events = new ArrayList<>();
        events.add(new WaitlistEnded(null, entry.withState(WaitlistEntry.State.BOOKED, now), now));
        events.addAll(decided.events());
        return Optional.of(new Decision(events, decided.changes(), null));
    }

    /** The create an entry stands for, from {@code start} (null: from the decision's instant). No request answers it. */
    private static CreateBooking command(WaitlistEntry e, Instant start) {
        return new CreateBooking(
                null,
                null,
                new Caller(e.createdBy(), e.tenant(), false),
                e.pool(),
                e.id(),
                e.namespace(),
                e.quantity(),
                start,
                null,
                e.purpose(),
                e.createdAt(),
                null,
                e.length(),
                e.profile());
    }

    /**
     * The same request at a fixed later {@code start}, same length, not waiting (it is the waitlist's own try), with
     * what the budget stage set aside for it (the most any start up to its latest start takes, so the same check).
     */
    private static CreateBooking command(CreateBooking c, Instant start, Duration length) {
        return new CreateBooking(
                        c.requestId(),
                        null,
                        c.caller(),
                        c.pool(),
                        c.bookingId(),
                        c.namespace(),
                        c.quantity(),
                        start,
                        null,
                        c.purpose(),
                        c.requestedAt(),
                        null,
                        length,
                        c.profile())
                .withBudgetHold(c.budgetHold());
    }

    private static boolean booked(Decision decision) {
        return !decision.changes().isEmpty();
    }

    private static Optional<BookingRejected> capacityRefusal(Decision decision) {
        if (decision.events().size() == 1
                && decision.events().getFirst() instanceof BookingRejected r
                && Rejection.CAPACITY.name().equals(r.reason())) {
            return Optional.of(r);
        }
        return Optional.empty();
    }
}
