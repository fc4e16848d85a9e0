package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.KubeResources;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Dry-run and keda mode decide exactly as direct mode does, and write nothing to the API server. */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ReportOnlyModesIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-a-dev";

    static ReclaimerHarness dryRun;
    static ReclaimerHarness keda;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-a")).create();
        dryRun = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, true);
        keda = new ReclaimerHarness(broker, api, POLICY, Mode.KEDA, false);
    }

    @AfterAll
    static void stop() throws Exception {
        dryRun.close();
        keda.close();
    }

    private static InferenceService create(ReclaimerHarness harness, String name) {
        InferenceService isvc = harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .resource(Fixtures.inferenceService(NS, name, 1, Map.of()))
                .create();
        harness.client
                .pods()
                .inNamespace(NS)
                .resource(Fixtures.predictor(NS, name, name + "-predictor-0", "nvidia.com/gpu", 1))
                .create();
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", name);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory.find(ref).isPresent()
                        && harness.owners.ownerOf(NS, name + "-predictor-0").isPresent());
        return isvc;
    }

    private static InferenceService current(ReclaimerHarness harness, String name) {
        return harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    @Test
    void shouldReportADryRunReclaimAndWriteNothing() {
        String before = create(dryRun, "dry").getMetadata().getResourceVersion();
        Samples s = Samples.startingSoon(INTERVAL);
        String key = NS + "/InferenceService/dry";

        dryRun.send(s.run(new Device("node-9", "GPU-dry", null, NS, "dry-predictor-0"), 0, 12, 0.0));

        await().atMost(Duration.ofSeconds(20))
                .until(() -> !dryRun.eventsOf(key, ReclaimEvent.Reclaimed.class).isEmpty());
        ReclaimEvent.Reclaimed reclaimed =
                dryRun.eventsOf(key, ReclaimEvent.Reclaimed.class).getFirst();
        assertThat(reclaimed.dryRun()).isTrue();
        assertThat(reclaimed.groups()).containsExactly(new ReclaimEvent.ScaledGroup("predictor", null, 1, 0));
        InferenceService after = current(dryRun, "dry");
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(before);
        assertThat(KubeResources.annotations(after)).doesNotContainKey(KubeResources.RECLAIMED_STATE);
    }

    @Test
    void shouldPublishIdlenessInKedaModeWithoutScaling() {
        String before = create(keda, "keda").getMetadata().getResourceVersion();
        Samples s = Samples.startingSoon(INTERVAL);
        String key = NS + "/InferenceService/keda";

        keda.send(s.run(new Device("node-9", "GPU-keda", null, NS, "keda-predictor-0"), 0, 12, 0.0));

        await().atMost(Duration.ofSeconds(20)).until(() -> !keda.eventsOf(key, ReclaimEvent.IdleDetected.class)
                .isEmpty());
        assertThat(keda.eventsOf(key, ReclaimEvent.IdleDetected.class)
                        .getFirst()
                        .mode())
                .isEqualTo("keda");
        assertThat(keda.eventsOf(key)).noneMatch(e -> e instanceof ReclaimEvent.Reclaimed);
        assertThat(current(keda, "keda").getMetadata().getResourceVersion()).isEqualTo(before);
    }
}
