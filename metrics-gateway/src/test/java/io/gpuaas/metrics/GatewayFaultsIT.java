package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.metrics.kafka.ProjectionHook;
import io.gpuaas.testing.health.Readiness;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults inside a running gateway on a real broker, judged the way Kubernetes and KEDA see it: a projection that
 * throws, and the broker cut off for a while. Readiness goes DOWN while the projections do not follow, comes back by
 * itself, and the KEDA endpoint and /metrics show what was written meanwhile.
 */
@ExtendWith(KafkaBrokerExtension.class)
class GatewayFaultsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final FailingProjection FAULTS = new FailingProjection();
    private static final String KEDA = GatewayHarness.token("keda", List.of(), List.of("metrics"));

    private static GatewayHarness gateway;
    private static KafkaBroker broker;
    /** As KEDA (metrics role) reads it: with each component's state. */
    private static Readiness readiness;

    @BeforeAll
    static void start(KafkaBroker kafka) throws Exception {
        broker = kafka;
        gateway = new GatewayHarness(
                kafka,
                null,
                "/dcgm/dcgm-exporter-t4.prom",
                port -> Map.of(
                        "gpuaas.metrics-gateway.projections.backoff-initial", "500ms",
                        "gpuaas.metrics-gateway.projections.backoff-max", "2s",
                        "gpuaas.metrics-gateway.projections.handler-attempts", 5,
                        "gpuaas.metrics-gateway.projections.probe-interval", "1s",
                        "gpuaas.metrics-gateway.projections.probe-timeout", "3s"),
                FAULTS);
        readiness = Readiness.of(gateway.server.getURI()).withToken(KEDA).within(WAIT);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void ready() {
        gateway.awaitReady();
    }

    @Test
    void shouldBeUnreadyWhileAProjectionFailsAndApplyTheRecordWhenItStopsFailing() throws Exception {
        FAULTS.failNext("lq/team-f/flaky", 3);

        gateway.send(Topics.QUOTA_STATE, "lq/team-f/flaky", localQueue("flaky", 4));

        assertThat(stateFeedRecovering().down()).isTrue();
        assertThat(gateway.get("/health/liveness", null, null).statusCode()).isEqualTo(200);
        readiness.awaitUp();
        assertThat(queue("flaky")).contains("\"pendingWorkloads\":4", "\"known\":true");
    }

    @Test
    void shouldRecoverByItselfAndFollowAgainWhenAProjectionKeepsFailingOnARecord() throws Exception {
        FAULTS.failNext("lq/team-f/poison", Integer.MAX_VALUE);

        gateway.send(Topics.QUOTA_STATE, "lq/team-f/poison", localQueue("poison", 9));
        assertThat(stateFeedRecovering().down()).isTrue();

        // After its attempts the replica dead-letters the record and moves on, without anyone stepping in.
        readiness.awaitUp();
        gateway.send(Topics.QUOTA_STATE, "lq/team-f/next", localQueue("next", 2));
        await().atMost(WAIT).untilAsserted(() -> assertThat(queue("next")).contains("\"pendingWorkloads\":2"));
        assertThat(queue("poison")).contains("\"known\":false");
        List<ConsumerRecord<byte[], byte[]>> letters = gateway.consumeMatching(
                Topics.DEAD_LETTER.name(gateway.prefix), new ByteArrayDeserializer(), r -> "lq/team-f/poison"
                        .equals(new String(r.key())));
        assertThat(CloudEvents.header(letters.getFirst().headers(), DeadLetterPublisher.REASON))
                .isEqualTo(IllegalStateException.class.getSimpleName());
    }

    @Test
    void shouldBeUnreadyWhileCutOffFromTheBrokerAndFollowAgainWhenAccessReturns() throws Exception {
        broker.deleteAcls(gateway.gatewayAcls());
        try {
            gateway.send(Topics.QUOTA_STATE, "lq/team-f/during-cut", localQueue("during-cut", 3));
            assertThat(stateFeedRecovering().down()).isTrue();
            // However often the replicas retry meanwhile, none of them claims to follow while it cannot.
            readiness.awaitDownFor(Duration.ofSeconds(3));
            assertThat(gateway.get("/health/liveness", null, null).statusCode()).isEqualTo(200);
        } finally {
            broker.createAcls(gateway.gatewayAcls());
        }

        readiness.awaitUp();
        await().atMost(WAIT).untilAsserted(() -> assertThat(queue("during-cut")).contains("\"pendingWorkloads\":3"));
        gateway.send(Topics.QUOTA_STATE, "lq/team-f/after-cut", localQueue("after-cut", 1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("gpuaas_queue_pending_workloads{cluster_queue=\"gpuaas-team-f\",local_queue=\"after-cut\","
                        + "namespace=\"team-f\"} 1.0"));
        // Scraping publishes again too: the sample producer survived the cut.
        double published = samplesPublished();
        await().atMost(WAIT).until(() -> samplesPublished() > published);
    }

    private static double samplesPublished() throws Exception {
        Matcher counter = Pattern.compile("(?m)^gpuaas_gpu_samples_published_total (\\S+)$")
                .matcher(gateway.metrics());
        return counter.find() ? Double.parseDouble(counter.group(1)) : 0;
    }

    /** Waits until readiness's details (for the metrics role) say the state feed is recovering. */
    private static Readiness.Answer stateFeedRecovering() {
        return readiness.awaitComponent("state-feed", "RECOVERING");
    }

    private static String queue(String name) throws Exception {
        return gateway.get("/api/v1/keda/queues/team-f/" + name, KEDA, null).body();
    }

    private static QueueState localQueue(String name, int pending) {
        return QueueStates.localQueue("team-f", name, pending);
    }

    /** The test seam: throws for a key, as a projection with a bug would, as often as told. */
    static final class FailingProjection implements ProjectionHook {
        private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();

        void failNext(String key, int times) {
            failuresLeft.put(key, new AtomicInteger(times));
        }

        @Override
        public void beforeApply(TopicSpec<String, ?> topic, String key) {
            AtomicInteger left = failuresLeft.get(key);
            if (left != null && left.getAndDecrement() > 0) {
                throw new IllegalStateException("projection failure injected by the test on " + key);
            }
        }
    }
}
