package io.gpuaas.booking.kafka;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.kit.kafka.KafkaClients;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends booking commands keyed by pool, so every command of a pool reaches that pool's single writer. The producer is
 * micronaut-kafka's ({@code KafkaClients#producer}), closed with the context.
 */
@Singleton
public class CommandPublisher {

    private final Producer<String, BookingCommand> producer;
    private final Producer<String, BudgetCommand> budgetProducer;
    private final String topic;
    private final String budgetTopic;
    private final BookingView view;

    public CommandPublisher(KafkaClients clients, BookingView view) {
        // A person waits for every command: do not hold records back for batching.
        this.producer = clients.producer(
                "booking-commands", String.class, BookingCommand.class, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        this.budgetProducer = clients.producer(
                "budget-commands", String.class, BudgetCommand.class, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        this.topic = clients.topic(Topics.BOOKING_COMMANDS);
        this.budgetTopic = clients.topic(Topics.BUDGET_COMMANDS);
        this.view = view;
    }

    /**
     * Sends {@code command} on its way: a create, a change or a series to its tenant's budget stage (keyed by
     * tenant; the stage forwards it to the pool's writer unless it would take a month over the tenant's budget),
     * anything else (cancel, release, approval, cancel of a series: they never need more) straight to the pool's writer.
     */
    public CompletableFuture<RecordMetadata> send(BookingCommand command) {
        return switch (command) {
            case BookingCommand.CreateBooking c ->
                budget(new BudgetCommand.HoldCreate(c.caller().tenant(), c));
            case BookingCommand.CreateSeries s ->
                budget(new BudgetCommand.HoldSeries(s.caller().tenant(), s));
            // An admin's change acts for the booking's owner: its budget is the owner's.
            case BookingCommand.ChangeBooking c ->
                budget(new BudgetCommand.HoldChange(
                        view.find(c.bookingId())
                                .map(Booking::tenant)
                                .orElse(c.caller().tenant()),
                        c));
            default -> publish(producer, new ProducerRecord<>(topic, command.pool(), command));
        };
    }

    /** Sends a budget command (a budget set by an admin, or a request) to its tenant's budget stage. */
    public CompletableFuture<RecordMetadata> budget(BudgetCommand command) {
        return publish(budgetProducer, new ProducerRecord<>(budgetTopic, command.tenant(), command));
    }

    private static <V> CompletableFuture<RecordMetadata> publish(
            Producer<String, V> producer, ProducerRecord<String, V> record) {
        CompletableFuture<RecordMetadata> sent = new CompletableFuture<>();
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                sent.completeExceptionally(error);
            } else {
                sent.complete(metadata);
            }
        });
        return sent;
    }
}
