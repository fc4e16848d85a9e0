package io.gpuaas.booking.kafka;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
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
    private final String topic;

    public CommandPublisher(KafkaClients clients) {
        // A person waits for every command: do not hold records back for batching.
        this.producer = clients.producer(
                "booking-commands", String.class, BookingCommand.class, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        this.topic = clients.topic(Topics.BOOKING_COMMANDS);
    }

    public CompletableFuture<RecordMetadata> send(BookingCommand command) {
        CompletableFuture<RecordMetadata> sent = new CompletableFuture<>();
        producer.send(new ProducerRecord<>(topic, command.pool(), command), (metadata, error) -> {
            if (error != null) {
                sent.completeExceptionally(error);
            } else {
                sent.complete(metadata);
            }
        });
        return sent;
    }
}
