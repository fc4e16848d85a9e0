package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two gateway instances side by side on one broker, as two pods of the Deployment: each reads every partition (no
 * consumer group to split them), so both serve the same queues, bookings, idleness and tenant use, and either one
 * can answer KEDA alone.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TwoGatewaysIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String KEDA = GatewayHarness.token("keda", List.of(), List.of("metrics"));

    private static GatewayHarness first;
    private static GatewayHarness second;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        Map<String, Object> tenants = Map.of("gpuaas.metrics-gateway.usage.namespace-tenants.team-t", "team-t");
        first = new GatewayHarness(broker, "/dcgm/dcgm-exporter-t4.prom", tenants);
        // Only one instance publishes rollups (DESIGN.md); everything else runs the same on both.
        Map<String, Object> secondProps = new HashMap<>(tenants);
        secondProps.put("gpuaas.metrics-gateway.usage.rollups", false);
        second = new GatewayHarness(broker, first.prefix, "/dcgm/dcgm-exporter-t4.prom", port -> secondProps);
        first.awaitReady();
        second.awaitReady();
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @Test
    void shouldServeTheSameQueuesBookingsIdlenessAndTenantUseFromBothInstances() {
        Instant now = Instant.now();
        first.send(Topics.QUOTA_STATE, "lq/team-t/gpuaas", localQueue("gpuaas", 6));
        first.send(Topics.BOOKINGS, "bk-1", new Booking("bk-1", "team-t", "team-t", "h200", "h200", "nvidia.com/gpu",
                3, now.minusSeconds(60), now.plusSeconds(3600), null, BookingState.ACTIVE, "alice", now, now, 1));
        WorkloadRef ref = new WorkloadRef("team-t", "InferenceService", "chat");
        first.send(Topics.RECLAIM_EVENTS, ref.key(), new ReclaimEvent.IdleDetected(ref, "team-t", 2,
                now.minusSeconds(900), 900, 0.05, 0.01, 1.0, "keda", now));
        first.send(Topics.GPU_SAMPLES, "n7/GPU-t", new GpuSample(now, "n7", "GPU-t", 0, "NVIDIA H200", null, null,
                "team-t", "worker-t", "main", 0.7, "GR_ENGINE_ACTIVE", 100.0, 100.0, 300.0));

        for (GatewayHarness gateway : List.of(first, second)) {
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(gateway.get("/api/v1/keda/queues/team-t/gpuaas", KEDA, null).body())
                        .contains("\"pendingWorkloads\":6", "\"known\":true");
                assertThat(gateway.get("/api/v1/keda/workloads/team-t/InferenceService/chat", KEDA, null).body())
                        .contains("\"idle\":1");
                assertThat(gateway.metrics()).contains(
                        "gpuaas_tenant_booked_units{pool=\"h200\",tenant=\"team-t\"} 3.0",
                        "gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-t\"} 0.7");
            });
        }
    }

    @Test
    void shouldServeEveryQueueWrittenBeforeTheMomentAnInstanceStartedLaterIsReady() throws Exception {
        first.send(Topics.QUOTA_STATE, "lq/team-t/earlier", localQueue("earlier", 5));
        await().atMost(WAIT).untilAsserted(() -> assertThat(second.get("/api/v1/keda/queues/team-t/earlier", KEDA,
                null).body()).contains("\"known\":true"));

        // A third pod of a rolling update: readiness waits until it has read the history, so it never answers
        // KEDA with "unknown" for a queue the others know.
        GatewayHarness late = new GatewayHarness(first.broker, first.prefix, "/dcgm/dcgm-exporter-t4.prom",
                port -> Map.of("gpuaas.metrics-gateway.usage.rollups", false));
        try {
            late.awaitReady();
            assertThat(late.get("/api/v1/keda/queues/team-t/earlier", KEDA, null).body())
                    .contains("\"pendingWorkloads\":5", "\"known\":true");
        } finally {
            late.close();
        }
    }

    private static QueueState localQueue(String name, int pending) {
        return new QueueState(QueueState.Kind.LOCAL_QUEUE, "gpuaas-team-t", "team-t", name, "gpuaas-pool", "team-t",
                Map.of(), Map.of(), Map.of(), pending, 0, 0, Map.of("nvidia.com/gpu", BigDecimal.ONE), Instant.now());
    }
}
