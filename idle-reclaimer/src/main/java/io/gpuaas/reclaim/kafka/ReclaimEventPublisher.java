package io.gpuaas.reclaim.kafka;

import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes the events of steps taken outside the stream (resumes) on {@code reclaim-events}; waits for the
 * broker's acknowledgement so an HTTP caller is answered only once the event is durable.
 */
@Singleton
public class ReclaimEventPublisher implements AutoCloseable {

    private final Producer<String, ReclaimEvent> producer;
    private final String topic;

    public ReclaimEventPublisher(KafkaClients clients) {
        this.producer = new KafkaProducer<>(
                clients.producerConfig("idle-reclaimer-events"),
                new StringSerializer(),
                Topics.RECLAIM_EVENTS.valueSerde().serializer());
        this.topic = clients.topic(Topics.RECLAIM_EVENTS);
    }

    public void publish(ReclaimEvent event) {
        try {
            producer.send(new ProducerRecord<>(topic, event.workload().key(), event))
                    .get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted publishing " + event.workload().key(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "could not publish event of " + event.workload().key(), e);
        }
    }

    @PreDestroy
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
