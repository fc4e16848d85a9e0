package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.CancelSeries;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.CreateSeries;
import io.gpuaas.events.booking.BookingCommand.SeriesMode;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingEvent.BookingCancelled;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingPendingApproval;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.RefusedOccurrence;
import io.gpuaas.events.booking.BookingEvent.SeriesCancelled;
import io.gpuaas.events.booking.BookingEvent.SeriesDecided;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides recurring series, pure like {@link BookingDecider}. A series' occurrences never overlap each other
 * ({@link Recurrence#expand}), so each is decided as the create of a booking of its own against the same ledger (a
 * booking, its capacity and its tenant cap, its placement on a flexible pool, its pool's approval threshold: held
 * PENDING_APPROVAL when over it), and the results are joined into one
 * {@link Decision}: one transaction, the same on every replay. An occurrence on a flexible pool that would need other
 * bookings moved is refused ({@code CAPACITY}): moves made for two occurrences could put the same booking in two
 * places, so a series only takes room that is free as it is.
 */
final class SeriesDecisions {

    /** The decider's create of one booking, before idempotency. */
    @FunctionalInterface
    interface OccurrenceDecider {
        Decision decide(CreateBooking create, BookingLedger ledger, Instant now);
    }

    private final PoolCatalog pools;
    private final BookingPolicy policy;

    SeriesDecisions(PoolCatalog pools, BookingPolicy policy) {
        this.pools = pools;
        this.policy = policy;
    }

    Decision create(CreateSeries c, BookingLedger ledger, Instant now, OccurrenceDecider occurrence) {
        if (pools.find(c.pool()).isEmpty()) {
            return BookingDecider.reject(c, null, Rejection.UNKNOWN_POOL, "no pool " + c.pool(), now);
        }
        if (c.start() == null || (c.end() == null) == (c.duration() == null)) {
            return BookingDecider.reject(
                    c, null, Rejection.INVALID_WINDOW, "a series needs a start and either end or duration", now);
        }
        List<Recurrence.Occurrence> occurrences;
        ZoneId zone;
        try {
            zone = Recurrence.zone(c.timeZone());
            Instant firstEnd = c.end() != null ? c.end() : policy.endAfter(c.start(), c.duration());
            occurrences = Recurrence.expand(RecurrenceRule.parse(c.rule()), zone, c.start(), firstEnd);
        } catch (RecurrenceRule.InvalidRecurrence e) {
            return BookingDecider.reject(c, null, Rejection.INVALID_RECURRENCE, e.getMessage(), now);
        }
        for (Recurrence.Occurrence o : occurrences) {
            if (ledger.booking(Recurrence.occurrenceId(c.seriesId(), o.index())).isPresent()) {
                return BookingDecider.reject(
                        c, null, Rejection.BOOKING_EXISTS, "series " + c.seriesId() + " exists", now);
            }
        }
        List<Decision> booked = new ArrayList<>();
        List<RefusedOccurrence> refused = new ArrayList<>();
        for (Recurrence.Occurrence o : occurrences) {
            CreateBooking create = occurrenceCreate(c, o);
            Decision d = occurrence.decide(create, ledger, now);
            outcome(create, d).ifPresentOrElse(refused::add, () -> booked.add(inSeries(d, c.seriesId())));
        }
        SeriesMode mode = c.mode() == null ? SeriesMode.EACH : c.mode();
        if (mode == SeriesMode.ALL_OR_NONE && !refused.isEmpty()) {
            List<RefusedOccurrence> all = new ArrayList<>(refused);
            for (Decision d : booked) {
                Booking b = d.changes().getFirst();
                all.add(new RefusedOccurrence(
                        b.id(),
                        b.start(),
                        b.end(),
                        Rejection.SERIES_ALL_OR_NONE.name(),
                        "fits, but not booked: another occurrence was refused and the series is all or none",
                        null));
            }
            all.sort(Comparator.comparing(RefusedOccurrence::start));
            return answer(c, zone, mode, List.of(), all, now);
        }
        return answer(c, zone, mode, booked, refused, now);
    }

    private static Decision answer(
            CreateSeries c,
            ZoneId zone,
            SeriesMode mode,
            List<Decision> booked,
            List<RefusedOccurrence> refused,
            Instant now) {
        List<BookingEvent> events = new ArrayList<>();
        List<Booking> changes = new ArrayList<>();
        List<Booking> confirmed = new ArrayList<>();
        for (Decision d : booked) {
            events.addAll(d.events());
            changes.addAll(d.changes());
            for (BookingEvent e : d.events()) {
                switch (e) {
                    case BookingConfirmed x -> confirmed.add(x.booking());
                    case BookingPendingApproval x -> confirmed.add(x.booking()); // over the threshold: held
                    default -> {}
                }
            }
        }
        SeriesDecided decided = new SeriesDecided(
                c.requestId(),
                c.seriesId(),
                c.pool(),
                c.caller().tenant(),
                c.rule(),
                zone.getId(),
                mode,
                confirmed,
                refused,
                now);
        // The answer first: the decision processor reports the first event as the command's outcome.
        events.addFirst(decided);
        return new Decision(events, changes, null);
    }

    /** Empty when the occurrence's decision booked it, else why it was refused. */
    private static Optional<RefusedOccurrence> outcome(CreateBooking create, Decision d) {
        for (BookingEvent e : d.events()) {
            if (e instanceof BookingRejected r) {
                return Optional.of(new RefusedOccurrence(
                        create.bookingId(), create.start(), create.end(), r.reason(), r.message(), r.earliestStart()));
            }
            if (e instanceof BookingEvent.BookingMoved) {
                return Optional.of(new RefusedOccurrence(
                        create.bookingId(),
                        create.start(),
                        create.end(),
                        Rejection.CAPACITY.name(),
                        "fits only by moving other bookings, which a series does not do; book this occurrence on"
                                + " its own",
                        null));
            }
        }
        return Optional.empty();
    }

    /** The create of one occurrence: no idempotency key of its own (the series' key covers the whole answer). */
    private static CreateBooking occurrenceCreate(CreateSeries c, Recurrence.Occurrence o) {
        return new CreateBooking(
                c.requestId(),
                null,
                c.caller(),
                c.pool(),
                Recurrence.occurrenceId(c.seriesId(), o.index()),
                c.namespace(),
                c.quantity(),
                o.start(),
                o.end(),
                c.purpose(),
                c.requestedAt(),
                null,
                null,
                c.profile());
    }

    /** {@code d} with every booking it confirms or activates marked as an occurrence of {@code seriesId}. */
    private static Decision inSeries(Decision d, String seriesId) {
        List<BookingEvent> events = d.events().stream()
                .map(e -> switch (e) {
                    case BookingConfirmed x ->
                        (BookingEvent)
                                new BookingConfirmed(x.requestId(), x.booking().inSeries(seriesId), x.time());
                    case BookingActivated x ->
                        new BookingActivated(x.booking().inSeries(seriesId), x.time(), x.requestId());
                    case BookingPendingApproval x ->
                        new BookingPendingApproval(
                                x.requestId(),
                                x.booking().inSeries(seriesId),
                                x.unitHours(),
                                x.threshold(),
                                x.holdUntil(),
                                x.time());
                    default -> e;
                })
                .toList();
        List<Booking> changes =
                d.changes().stream().map(b -> b.inSeries(seriesId)).toList();
        return new Decision(events, changes, null);
    }

    /**
     * Cancels every occurrence of the series the caller sees that is still CONFIRMED and starts at or after
     * {@code from} (now when absent). Occurrences are found by their ids, derived from the series id, so no index
     * of series is kept.
     */
    Decision cancelRest(CancelSeries c, BookingLedger ledger, Instant now) {
        List<Booking> occurrences = new ArrayList<>();
        for (int i = 0; i < Recurrence.MAX_OCCURRENCES; i++) {
            ledger.booking(Recurrence.occurrenceId(c.seriesId(), i))
                    .filter(b -> c.seriesId().equals(b.seriesId()) && b.pool().equals(c.pool()))
                    .filter(b -> visibleTo(b, c.caller()))
                    .ifPresent(occurrences::add);
        }
        if (occurrences.isEmpty()) {
            return BookingDecider.reject(c, null, Rejection.NOT_FOUND, "no series " + c.seriesId(), now);
        }
        Instant from = c.from() != null ? c.from() : now;
        List<BookingEvent> events = new ArrayList<>();
        List<Booking> changes = new ArrayList<>();
        occurrences.stream()
                .filter(b -> b.state() == BookingState.CONFIRMED && !b.start().isBefore(from))
                .sorted(Comparator.comparing(Booking::start))
                .forEach(b -> {
                    Booking cancelled = b.withState(BookingState.CANCELLED, now);
                    changes.add(cancelled);
                    events.add(new BookingCancelled(c.requestId(), cancelled, now));
                });
        events.addFirst(new SeriesCancelled(
                c.requestId(),
                c.seriesId(),
                c.pool(),
                occurrences.getFirst().tenant(),
                from,
                changes.stream().map(Booking::id).toList(),
                now));
        return new Decision(events, changes, null);
    }

    private static boolean visibleTo(Booking b, Caller caller) {
        return caller.admin() || caller.system() || b.tenant().equals(caller.tenant());
    }
}
