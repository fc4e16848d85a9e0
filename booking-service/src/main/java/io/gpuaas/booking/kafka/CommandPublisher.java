package io.gpuaas.booking.kafka;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.kit.kafka.KafkaClients;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Sends booking commands keyed by pool, so every command of a pool reaches that pool's single writer. */
@Singleton
public class CommandPublisher {

    private final Producer<String, BookingCommand> producer;
    private final String topic;

    public CommandPublisher(KafkaClients clients) {
        Map<String, Object> config = clients.producerConfig("booking-commands");
        // A person waits for every command: do not hold records back for batching.
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        this.producer = new KafkaProducer<>(
                config,
                new StringSerializer(),
                Topics.BOOKING_COMMANDS.valueSerde().serializer());
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

    @PreDestroy
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
