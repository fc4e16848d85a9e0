package io.gpuaas.quota.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kueue → Kafka: condition transitions of a Workload arrive on the kueue-workloads topic once each, whatever
 * resyncs and restarts happen, and the queues it touches get their state on the quota-state topic.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadStreamIT {

    // Informers resync every second here, so the test sees several resyncs.
    private static final QuotaSettings FAST_RESYNC = new QuotaSettings(
            "gpuaas-pool",
            "gpuaas",
            true,
            true,
            Duration.ofMinutes(10),
            2,
            Duration.ofSeconds(1),
            QuotaSettings.defaults().queueLead());

    private ProjectorFixture fixture;
    private TestWorkloads workloads;
    private QuotaProjector projector;

    @BeforeAll
    void start(KubernetesClient client, KafkaBroker broker) throws Exception {
        fixture = new ProjectorFixture(client, broker);
        workloads = new TestWorkloads(client);
        fixture.tenantNamespace("echo", "echo");
        fixture.book("b-echo", "echo", "h200", 4, Instant.now(), Instant.now().plusSeconds(600));
        projector =
                fixture.start(FAST_RESYNC, LeaseSettings.disabled("gpuaas-quota-projector"), new PrometheusRegistry());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> fixture.get(Kind.LOCAL_QUEUE, "echo", "gpuaas").isPresent());
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    @Test
    void shouldPublishEachTransitionOnceAndQueueStateWhenWorkloadIsAdmittedResyncedAndProjectorRestarts()
            throws Exception {
        workloads.create("echo", "ray-1", 2);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(queueState("lq/echo/gpuaas"))
                .containsEntry("pendingActive", 1)
                .containsEntry("pendingDemand", Map.of("cpu", 4, "nvidia.com/gpu", 2)));

        workloads.admit("echo", "ray-1", "gpuaas-echo", 2);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> transitions("echo/ray-1").size() == 2);
        Map<String, Object> admitted = transitions("echo/ray-1").get(1);
        assertThat(admitted)
                .containsEntry("clusterQueue", "gpuaas-echo")
                .containsEntry("queueName", "gpuaas")
                .containsEntry("priority", 100);
        assertThat(List.of(
                        field(transitions("echo/ray-1").get(0), "transition", "type"),
                        field(admitted, "transition", "type")))
                .containsExactlyInAnyOrder("QuotaReserved", "Admitted");
        assertThat(field(admitted, "owner", "kind")).isEqualTo("RayCluster");
        assertThat(admitted.get("podSets").toString()).contains("nvidia.com/gpu=1", "count=2");
        assertThat(admitted.get("admission").toString()).contains("nvidia.com/gpu=h200", "nvidia.com/gpu=2");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(queueState("cq/gpuaas-echo"))
                .containsEntry("admittedWorkloads", 1)
                .containsEntry("pendingActive", 0)
                .containsEntry("admittedUsage", Map.of("h200", Map.of("nvidia.com/gpu", 2)))
                .containsEntry(
                        "nominal",
                        Map.of(
                                // cpu and memory: the per-queue ceiling every gpuaas queue covers, not booked quota
                                "gpuaas-any-node",
                                Map.of("cpu", 100000, "memory", 1125899906842624L),
                                "h200",
                                Map.of("nvidia.com/gpu", 4),
                                "h200-mig-1g.18gb",
                                Map.of("nvidia.com/mig-1g.18gb", 0),
                                "h200-mig-2g.35gb",
                                Map.of("nvidia.com/mig-2g.35gb", 0),
                                "h200-mig-3g.71gb",
                                Map.of("nvidia.com/mig-3g.71gb", 0))));

        Thread.sleep(2_500);
        assertThat(transitions("echo/ray-1")).as("after resyncs").hasSize(2);

        fixture.stop(projector);
        projector =
                fixture.start(FAST_RESYNC, LeaseSettings.disabled("gpuaas-quota-projector"), new PrometheusRegistry());
        Thread.sleep(1_500);
        assertThat(transitions("echo/ray-1")).as("after a restart").hasSize(2);

        workloads.finish("echo", "ray-1");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> transitions("echo/ray-1").size() == 3);
        assertThat(field(transitions("echo/ray-1").get(2), "transition", "type"))
                .isEqualTo("Finished");

        fixture.client
                .genericKubernetesResources(Kind.WORKLOAD.context())
                .inNamespace("echo")
                .withName("ray-1")
                .delete();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> records("echo/ray-1").stream().anyMatch(r -> "io.gpuaas.kueue.workload.deleted.v1"
                        .equals(CloudEvents.header(r.headers(), CloudEvents.TYPE))));
    }

    private List<ConsumerRecord<String, String>> records(String key) {
        return fixture.records(fixture.kafka.topic(Topics.KUEUE_WORKLOADS)).stream()
                .filter(r -> key.equals(r.key()))
                .toList();
    }

    private List<Map<String, Object>> transitions(String key) {
        return records(key).stream()
                .filter(r -> "io.gpuaas.kueue.workload.observed.v1"
                        .equals(CloudEvents.header(r.headers(), CloudEvents.TYPE)))
                .map(r -> json(r.value()))
                .toList();
    }

    private Map<String, Object> queueState(String key) {
        List<ConsumerRecord<String, String>> states = fixture.records(fixture.kafka.topic(Topics.QUOTA_STATE)).stream()
                .filter(r -> key.equals(r.key()) && r.value() != null)
                .toList();
        return states.isEmpty() ? Map.of() : json(states.get(states.size() - 1).value());
    }

    private static Object field(Map<String, Object> json, String outer, String inner) {
        return ((Map<?, ?>) json.get(outer)).get(inner);
    }

    private static Map<String, Object> json(String value) {
        try {
            return Json.mapper().readValue(value, new TypeReference<>() {});
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
