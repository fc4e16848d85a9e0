package io.gpuaas.booking.http;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.kafka.CommandPublisher;
import io.gpuaas.booking.kafka.DecisionAwaiter;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Publishes a command and waits, without blocking a thread, for the decision carrying its request id. The wait
 * is bounded by {@code gpuaas.booking.decision-timeout}; an empty result means "not decided yet" (HTTP 202).
 */
@Singleton
public class DecisionGateway {

    private final CommandPublisher publisher;
    private final DecisionAwaiter awaiter;
    private final BookingSettings settings;
    private final BookingMetrics metrics;

    public DecisionGateway(
            CommandPublisher publisher, DecisionAwaiter awaiter, BookingSettings settings, BookingMetrics metrics) {
        this.publisher = publisher;
        this.awaiter = awaiter;
        this.settings = settings;
        this.metrics = metrics;
    }

    public CompletableFuture<Optional<BookingEvent>> decide(BookingCommand command) {
        return decide(command, awaiter.expect(command.requestId()));
    }

    /** As {@link #decide(BookingCommand)}, answered by the first event with its request id {@code answers} accepts. */
    public CompletableFuture<Optional<BookingEvent>> decide(BookingCommand command, Predicate<BookingEvent> answers) {
        return decide(command, awaiter.expect(command.requestId(), answers));
    }

    private CompletableFuture<Optional<BookingEvent>> decide(
            BookingCommand command, CompletableFuture<BookingEvent> answer) {
        long started = System.nanoTime();
        return publisher
                .send(command)
                .thenCompose(sent -> answer)
                .thenApply(Optional::of)
                .completeOnTimeout(Optional.empty(), settings.decisionTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((result, error) -> {
                    awaiter.forget(command.requestId());
                    if (result != null && result.isPresent()) {
                        metrics.waited(System.nanoTime() - started);
                    } else if (error == null) {
                        metrics.timedOut();
                    }
                });
    }
}
