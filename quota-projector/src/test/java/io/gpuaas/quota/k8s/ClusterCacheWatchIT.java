package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Topics;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.quota.kafka.FeedWatermarks;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The feed watermark's condition on the CRUD mock: it vouches for the Workload feed, so it goes on while another
 * kind's watch is down (the cache as a whole is not RUNNING then) and stops when the Workload watch is.
 */
@ExtendWith(KubernetesApiExtension.class)
class ClusterCacheWatchIT {

    private static final String TOPIC = Topics.KUEUE_WORKLOADS.name(Topics.DEFAULT_PREFIX);
    private static final Node NODE = new Node(0, "localhost", 9092);

    private final MockProducer<String, WorkloadEvent> producer = new MockProducer<>(
            new Cluster(
                    "test",
                    List.of(NODE),
                    List.of(new PartitionInfo(TOPIC, 0, NODE, new Node[] {NODE}, new Node[] {NODE})),
                    Set.of(),
                    Set.of()),
            true,
            null,
            new StringSerializer(),
            Topics.KUEUE_WORKLOADS.valueSerde().serializer());
    private KubernetesClient client;
    private ClusterCache cache;
    private FeedWatermarks watermarks;

    @BeforeEach
    void start(KubernetesApi api) throws InterruptedException {
        client = api.newClient();
        cache = new ClusterCache(client, Duration.ofMinutes(10), false, new PrometheusRegistry());
        cache.start();
        await().atMost(Duration.ofSeconds(60)).until(cache::synced);
        await().until(() -> cache.health().state() == State.RUNNING);
        // As LeaderDuties wires it.
        watermarks = new FeedWatermarks(
                producer, TOPIC, "quota-projector-0", () -> cache.watching(Kind.WORKLOAD), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        cache.stop(Duration.ofSeconds(2));
        client.close();
    }

    @Test
    void shouldKeepWritingWatermarksWhenOnlyTheLocalQueueWatchIsDown() {
        cache.informerOf(Kind.LOCAL_QUEUE).stop();
        await().until(() -> cache.health().state() != State.RUNNING);

        watermarks.publish();

        assertThat(producer.history()).singleElement().satisfies(r -> assertThat(r.value())
                .isInstanceOf(WorkloadEvent.FeedWatermark.class));
    }

    @Test
    void shouldWriteNoWatermarkWhenTheWorkloadWatchIsDown() {
        cache.informerOf(Kind.WORKLOAD).stop();
        await().until(() -> !cache.watching(Kind.WORKLOAD));

        watermarks.publish();

        assertThat(producer.history()).isEmpty();
    }
}
