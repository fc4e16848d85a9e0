package io.gpuaas.booking.kafka;

import io.gpuaas.events.booking.BookingEvent;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Matches decisions read from {@code booking-events} to the HTTP calls waiting for them, by request id. A call
 * registers before it publishes its command, so a fast decision can never slip past it. A create whose window had
 * begun when it was decided (book now) is confirmed and activated in one transaction, both events carrying its
 * request id: the call is answered with the activation, so the caller sees its booking ACTIVE.
 */
@Singleton
public class DecisionAwaiter {

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    /** A call waiting for the event that answers it. */
    private record Waiting(CompletableFuture<BookingEvent> answer, Predicate<BookingEvent> answers) {}

    public CompletableFuture<BookingEvent> expect(String requestId) {
        return expect(requestId, event -> !activatedInTheSameDecision(event));
    }

    /**
     * Waits for the first event with {@code requestId} that {@code answers} accepts: a series request is answered by
     * its summary (or a rejection of the whole series), not by the confirmations of its occurrences that carry the
     * same request id.
     */
    public CompletableFuture<BookingEvent> expect(String requestId, Predicate<BookingEvent> answers) {
        return waiting.computeIfAbsent(requestId, id -> new Waiting(new CompletableFuture<>(), answers))
                .answer();
    }

    public void forget(String requestId) {
        waiting.remove(requestId);
    }

    void deliver(BookingEvent event) {
        String requestId = event.requestId();
        if (requestId == null) {
            return;
        }
        Waiting call = waiting.get(requestId);
        if (call != null && call.answers().test(event) && waiting.remove(requestId, call)) {
            call.answer().complete(event);
        }
    }

    /**
     * A confirmation the same decision follows with the activation (read_committed: both or neither are read). A
     * replayed answer to a book-now is the activation itself (the decider remembers the last answer), so a repeated
     * request is not left waiting for one that never comes.
     */
    static boolean activatedInTheSameDecision(BookingEvent event) {
        return event instanceof BookingEvent.BookingConfirmed confirmed
                && !confirmed.booking().start().isAfter(confirmed.time());
    }
}
