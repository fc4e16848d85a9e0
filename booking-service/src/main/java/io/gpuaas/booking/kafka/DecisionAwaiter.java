package io.gpuaas.booking.kafka;

import io.gpuaas.events.booking.BookingEvent;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Matches decisions read from {@code booking-events} to the HTTP calls waiting for them, by request id. A call
 * registers before it publishes its command, so a fast decision can never slip past it.
 */
@Singleton
public class DecisionAwaiter {

    private final Map<String, CompletableFuture<BookingEvent>> waiting = new ConcurrentHashMap<>();

    public CompletableFuture<BookingEvent> expect(String requestId) {
        return waiting.computeIfAbsent(requestId, id -> new CompletableFuture<>());
    }

    public void forget(String requestId) {
        waiting.remove(requestId);
    }

    void deliver(String requestId, BookingEvent event) {
        if (requestId == null) {
            return;
        }
        CompletableFuture<BookingEvent> future = waiting.remove(requestId);
        if (future != null) {
            future.complete(event);
        }
    }

    /** The request id an answer event carries; the clock's lifecycle events answer nobody. */
    static String requestIdOf(BookingEvent event) {
        return event.requestId();
    }
}
