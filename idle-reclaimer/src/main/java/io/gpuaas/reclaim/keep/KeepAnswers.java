package io.gpuaas.reclaim.keep;

import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.reclaim.config.KeepSettings;
import io.gpuaas.reclaim.model.WorkloadLookup;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The keep answers' edge, built from plain arguments (the service, the tests): the replica {@code reclaim-keeps-view}
 * of {@code reclaim-events} feeds {@link KeepBook} with every {@code ReclaimKept} (from the beginning: the day's
 * grants must be known), and {@link KeepService} sends answers with an idempotent producer.
 *
 * @param service what the controller calls
 * @param feed    the replica, a component of the service
 */
public record KeepAnswers(KeepService service, TopicReplica feed) {

    static final String FEED = "reclaim-keeps-view";

    public static KeepAnswers create(
            KeepSettings settings,
            WorkloadLookup workloads,
            KafkaClients clients,
            PrometheusRegistry registry,
            Clock clock) {
        KeepBook book = new KeepBook(settings);
        Producer<String, KeepRequested> producer = clients.producer("idle-reclaimer-keeps", Topics.RECLAIM_KEEPS);
        String topic = clients.topic(Topics.RECLAIM_KEEPS);
        KeepService service = new KeepService(workloads, book, answer -> send(producer, topic, answer), clock);
        TopicReplica feed = TopicReplica.builder(
                        FEED,
                        () -> clients.replicaConsumer(FEED),
                        clients.settings().topicPrefix(),
                        clients.deadLetterPublisher(FEED, registry))
                .follow(Topics.RECLAIM_EVENTS, TopicReplica.StartAt.BEGINNING, (key, event) -> {
                    if (event instanceof ReclaimEvent.ReclaimKept kept) {
                        book.granted(kept);
                    }
                })
                .build();
        return new KeepAnswers(service, feed);
    }

    private static void send(Producer<String, KeepRequested> producer, String topic, KeepRequested answer) {
        try {
            producer.send(new ProducerRecord<>(topic, answer.workload().key(), answer))
                    .get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted sending the keep of " + answer.workload().key(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "could not send the keep of " + answer.workload().key(), e);
        }
    }
}
