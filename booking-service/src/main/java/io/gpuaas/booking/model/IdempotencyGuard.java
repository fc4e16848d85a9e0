package io.gpuaas.booking.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CancelBooking;
import io.gpuaas.events.booking.BookingCommand.ChangeBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingEvent.BookingCancelled;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingExtended;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Idempotency keys, scoped per tenant: the first answer to a key is remembered with a fingerprint of the command
 * body; a repeat with the same body gets that answer again (under the new request id), a repeat with another
 * body is rejected with {@link Rejection#IDEMPOTENCY_MISMATCH}. The fingerprint is the HTTP edge's digest of the
 * request when the command carries it (so the edge and the decider agree on "same request"), else the command's
 * fields without request and booking ids, which the HTTP edge mints fresh for every attempt.
 */
public final class IdempotencyGuard {

    Optional<Decision> replay(BookingCommand command, BookingLedger ledger, Instant now) {
        if (command.idempotencyKey() == null) {
            return Optional.empty();
        }
        return ledger.idempotency(scopedKey(command))
                .map(entry -> entry.fingerprint().equals(fingerprint(command))
                        ? Decision.of(readdress(read(entry), command.requestId()), null)
                        : Decision.of(
                                new BookingRejected(
                                        command.requestId(),
                                        command.bookingId(),
                                        command.pool(),
                                        command.caller().tenant(),
                                        Rejection.IDEMPOTENCY_MISMATCH.name(),
                                        "Idempotency-Key " + command.idempotencyKey()
                                                + " was used with a different request",
                                        List.of(),
                                        null,
                                        now),
                                null));
    }

    Decision remember(BookingCommand command, Decision decision, Instant now) {
        if (command.idempotencyKey() == null || decision.events().isEmpty()) {
            return decision;
        }
        BookingEvent answer = answerOf(command, decision);
        try {
            IdempotencyEntry entry = new IdempotencyEntry(
                    fingerprint(command),
                    EventTypes.typeOf(answer.getClass()),
                    Json.mapper().writeValueAsString(answer),
                    now);
            return decision.remembering(new Decision.Remembered(scopedKey(command), entry));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot remember answer to " + command.requestId(), e);
        }
    }

    /**
     * The event the command's caller is answered with: the last one carrying its request id (a book-now is confirmed,
     * then activated, and answered with the activation), else the first. A series' summary comes first and answers.
     */
    static BookingEvent answerOf(BookingCommand command, Decision decision) {
        BookingEvent answer = decision.events().getFirst();
        if (answer instanceof BookingEvent.SeriesDecided || answer instanceof BookingEvent.SeriesCancelled) {
            return answer; // a series is answered by its summary, which comes first; its occurrences follow
        }
        for (BookingEvent event : decision.events()) {
            if (command.requestId().equals(event.requestId())) {
                answer = event;
            }
        }
        return answer;
    }

    /** Per tenant; a system caller's keys apart from its tenant's, so no tenant can spend a key the system uses. */
    public static String scopedKey(BookingCommand command) {
        String scope = command.caller().system()
                ? "system\u0000" + command.caller().tenant()
                : command.caller().tenant();
        return scope + '\u0000' + command.idempotencyKey();
    }

    /**
     * The edge's fingerprint of the whole HTTP request when the command carries one (method, path and body: a key
     * first used to cancel cannot then create), else the command's own fields, for commands written without it.
     */
    public static String fingerprint(BookingCommand command) {
        if (command.requestFingerprint() != null) {
            return "request|" + command.requestFingerprint();
        }
        return switch (command) {
            case CreateBooking c ->
                String.join(
                                "|",
                                "create",
                                c.pool(),
                                c.namespace(),
                                Integer.toString(c.quantity()),
                                String.valueOf(c.start()),
                                String.valueOf(c.end()),
                                String.valueOf(c.purpose()))
                        + durationPart(c.duration())
                        + (c.profile() == null ? "" : "|profile=" + c.profile())
                        + (c.latestStart() == null ? "" : "|latestStart=" + c.latestStart());
            case CancelBooking c -> String.join("|", "cancel", c.pool(), c.bookingId());
            case ChangeBooking c ->
                String.join("|", "change", c.pool(), c.bookingId(), String.valueOf(c.start()), String.valueOf(c.end()))
                        + durationPart(c.duration());
            case ReleaseBooking c -> String.join("|", "release", c.pool(), c.bookingId(), String.valueOf(c.reason()));
            case BookingCommand.DecideApproval c ->
                String.join("|", "approval", c.pool(), c.bookingId(), String.valueOf(c.approve()), c.reason());
            case BookingCommand.CreateSeries c ->
                String.join(
                        "|",
                        "series",
                        c.pool(),
                        c.namespace(),
                        Integer.toString(c.quantity()),
                        String.valueOf(c.start()),
                        String.valueOf(c.end()),
                        String.valueOf(c.duration()),
                        String.valueOf(c.purpose()),
                        String.valueOf(c.profile()),
                        c.rule(),
                        String.valueOf(c.timeZone()),
                        String.valueOf(c.mode()));
            case BookingCommand.CancelSeries c ->
                String.join("|", "cancel-series", c.pool(), c.seriesId(), String.valueOf(c.from()));
            case BookingCommand.KeepWorkload c ->
                String.join("|", "keep", c.pool(), c.bookingId(), c.workload().key(), Integer.toString(c.hours()));
        };
    }

    /** Empty without a duration, so commands written before durations existed keep their fingerprints. */
    private static String durationPart(java.time.Duration duration) {
        return duration == null ? "" : "|" + duration;
    }

    private static BookingEvent read(IdempotencyEntry entry) {
        Class<?> type = EventTypes.classOf(entry.answerType())
                .orElseThrow(() -> new IllegalStateException("unknown remembered type " + entry.answerType()));
        try {
            return (BookingEvent) Json.mapper().readValue(entry.answerJson(), type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot read remembered answer " + entry.answerType(), e);
        }
    }

    /** The remembered answer, addressed to the repeat's request so its HTTP caller receives it. */
    private static BookingEvent readdress(BookingEvent answer, String requestId) {
        return switch (answer) {
            case BookingConfirmed e -> new BookingConfirmed(requestId, e.booking(), e.time());
            case BookingCancelled e -> new BookingCancelled(requestId, e.booking(), e.time());
            case BookingExtended e ->
                new BookingExtended(requestId, e.booking(), e.previousStart(), e.previousEnd(), e.time());
            case BookingActivated e -> new BookingActivated(e.booking(), e.time(), requestId);
            case BookingReleased e -> new BookingReleased(requestId, e.booking(), e.reason(), e.releasedAt(), e.time());
            case BookingEvent.BookingPendingApproval e ->
                new BookingEvent.BookingPendingApproval(
                        requestId, e.booking(), e.unitHours(), e.threshold(), e.holdUntil(), e.time());
            case BookingEvent.BookingApprovalDecided e ->
                new BookingEvent.BookingApprovalDecided(
                        requestId, e.booking(), e.outcome(), e.decidedBy(), e.reason(), e.time());
            case BookingRejected e ->
                new BookingRejected(
                        requestId,
                        e.bookingId(),
                        e.pool(),
                        e.tenant(),
                        e.reason(),
                        e.message(),
                        e.conflicts(),
                        e.earliestStart(),
                        e.time());
            case BookingEvent.SeriesDecided e ->
                new BookingEvent.SeriesDecided(
                        requestId,
                        e.seriesId(),
                        e.pool(),
                        e.tenant(),
                        e.rule(),
                        e.timeZone(),
                        e.mode(),
                        e.confirmed(),
                        e.refused(),
                        e.time());
            case BookingEvent.SeriesCancelled e ->
                new BookingEvent.SeriesCancelled(
                        requestId, e.seriesId(), e.pool(), e.tenant(), e.from(), e.cancelled(), e.time());
            case BookingEvent.BookingWaitlisted e ->
                new BookingEvent.BookingWaitlisted(requestId, e.entry(), e.conflicts(), e.time());
            case BookingEvent.WaitlistEnded e -> new BookingEvent.WaitlistEnded(requestId, e.entry(), e.time());
            default ->
                throw new IllegalStateException(
                        "not an answer: " + answer.getClass().getSimpleName());
        };
    }
}
