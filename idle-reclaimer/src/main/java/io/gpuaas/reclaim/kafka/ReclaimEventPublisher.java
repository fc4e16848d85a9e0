package io.gpuaas.reclaim.kafka;

import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import jakarta.inject.Singleton;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes the events of steps taken outside the stream (resumes) on {@code reclaim-events}; waits for the
 * broker's acknowledgement so an HTTP caller is answered only once the event is durable. The producer is
 * micronaut-kafka's ({@code KafkaClients#producer}), closed with the context.
 */
@Singleton
public class ReclaimEventPublisher {

    private final Producer<String, ReclaimEvent> producer;
    private final String topic;

    public ReclaimEventPublisher(KafkaClients clients) {
        this.producer = clients.producer("idle-reclaimer-events", Topics.RECLAIM_EVENTS);
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
}
