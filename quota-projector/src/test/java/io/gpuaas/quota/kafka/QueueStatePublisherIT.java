package io.gpuaas.quota.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Topics;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueSpec;
import io.gpuaas.quota.k8s.Change;
import io.gpuaas.quota.k8s.ClusterCache;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.ObjectRef;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Queue state on the CRUD mock's informers, published through a producer that refuses sends on demand: a queue whose
 * publish failed is published later without changing again (the loop retries it), and nothing is sent twice for a
 * state Kafka already holds.
 */
@ExtendWith(KubernetesApiExtension.class)
class QueueStatePublisherIT {

    private static final String TOPIC = Topics.QUOTA_STATE.name(Topics.DEFAULT_PREFIX);
    private static final Node NODE = new Node(0, "localhost", 9092);

    private final RefusingProducer producer = new RefusingProducer();
    private KubernetesClient client;
    private ClusterCache cache;
    private QueueStatePublisher publisher;

    @BeforeEach
    void start(KubernetesApi api) throws InterruptedException {
        client = api.newClient();
        cache = new ClusterCache(client, Duration.ofMinutes(10), false, new PrometheusRegistry());
        cache.start();
        await().atMost(Duration.ofSeconds(60)).until(cache::synced);
        // As LeaderDuties wires it.
        publisher = new QueueStatePublisher(
                producer, TOPIC, cache, Clock.systemUTC(), new QuotaProjectorMetrics(new PrometheusRegistry()));
        cache.addListener(publisher::onChange);
    }

    @AfterEach
    void stop() {
        publisher.close();
        cache.stop(Duration.ofSeconds(2));
        client.close();
    }

    @Test
    void shouldPublishAQueueLaterWithoutANewChangeWhenItsPublishFailed() {
        create("gpuaas-retried");
        await().until(() -> cache.get(ref("gpuaas-retried")).isPresent());
        producer.refuseNext(1);

        publisher.start();

        await().atMost(Duration.ofSeconds(20))
                .until(() -> !sent("cq/gpuaas-retried").isEmpty());
        assertThat(producer.refused()).isEqualTo(1);
        assertThat(sent("cq/gpuaas-retried")).singleElement().satisfies(r -> assertThat(r.value())
                .isNotNull());
    }

    @Test
    void shouldTombstoneADeletedQueueWhenTheFirstTombstoneFailed() {
        create("gpuaas-deleted");
        publisher.start();
        await().until(() -> sent("cq/gpuaas-deleted").size() == 1);
        producer.refuseNext(1);

        client.resources(ClusterQueue.class).withName("gpuaas-deleted").delete();

        await().atMost(Duration.ofSeconds(20))
                .until(() -> sent("cq/gpuaas-deleted").size() == 2);
        assertThat(producer.refused()).isEqualTo(1);
        assertThat(sent("cq/gpuaas-deleted").get(1).value()).isNull();
    }

    @Test
    void shouldSendNothingWhenATouchedQueueKeptItsState() {
        create("gpuaas-same");
        publisher.start();
        await().until(() -> sent("cq/gpuaas-same").size() == 1);
        await().until(publisher::idle);
        ClusterQueue cached = cache.get(ref("gpuaas-same"), ClusterQueue.class).orElseThrow();

        publisher.onChange(new Change(Kind.CLUSTER_QUEUE, cached, cached));
        await().until(publisher::idle);

        assertThat(sent("cq/gpuaas-same")).hasSize(1);
    }

    private void create(String name) {
        ClusterQueue queue = new ClusterQueue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        ClusterQueueSpec spec = new ClusterQueueSpec();
        spec.setCohortName("gpuaas-pool");
        queue.setSpec(spec);
        client.resource(queue).create();
    }

    private static ObjectRef ref(String name) {
        return new ObjectRef(Kind.CLUSTER_QUEUE, null, name);
    }

    private List<ProducerRecord<String, QueueStateEvent>> sent(String key) {
        return producer.history().stream().filter(r -> key.equals(r.key())).toList();
    }

    /** Kafka's mock producer, acknowledging at once, whose next sends can be made to throw (broker unreachable). */
    private static final class RefusingProducer extends MockProducer<String, QueueStateEvent> {
        private final AtomicInteger toRefuse = new AtomicInteger();
        private final AtomicInteger refused = new AtomicInteger();

        RefusingProducer() {
            super(
                    new Cluster(
                            "test",
                            List.of(NODE),
                            List.of(new PartitionInfo(TOPIC, 0, NODE, new Node[] {NODE}, new Node[] {NODE})),
                            Set.of(),
                            Set.of()),
                    true,
                    null,
                    new StringSerializer(),
                    Topics.QUOTA_STATE.valueSerde().serializer());
        }

        void refuseNext(int sends) {
            toRefuse.set(sends);
        }

        int refused() {
            return refused.get();
        }

        @Override
        public synchronized Future<RecordMetadata> send(
                ProducerRecord<String, QueueStateEvent> record, Callback callback) {
            if (toRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                refused.incrementAndGet();
                throw new KafkaException("broker unreachable");
            }
            return super.send(record, callback);
        }
    }
}
