package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.reclaim.ScaleWrites;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.KubeResources;
import io.gpuaas.reclaim.k8s.ReclaimedState;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole reclaim path against a real broker and the CRUD mock API, with a 2 s window of 200 ms slots (10 slots,
 * 9 samples needed). Samples carry their own times, so nothing here waits for a window to pass.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ReclaimPipelineIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-a";

    static ReclaimerHarness harness;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-a")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
    }

    private static void createIsvc(String name, Integer minReplicas, String... pods) {
        createIsvc(name, minReplicas, "nvidia.com/gpu", 1, pods);
    }

    private static void createIsvc(String name, Integer minReplicas, String resource, int count, String... pods) {
        harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .resource(Fixtures.inferenceService(NS, name, minReplicas, Map.of()))
                .create();
        for (String pod : pods) {
            harness.client
                    .pods()
                    .inNamespace(NS)
                    .resource(Fixtures.predictor(NS, name, pod, resource, count))
                    .create();
        }
        awaitKnown("InferenceService", name, pods);
    }

    static void awaitKnown(String kind, String name, String... pods) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory
                                .find(new io.gpuaas.events.reclaim.WorkloadRef(NS, kind, name))
                                .isPresent()
                        && java.util.Arrays.stream(pods)
                                .allMatch(p -> harness.owners.ownerOf(NS, p).isPresent()));
    }

    private static InferenceService isvc(String name) {
        return harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private static ReclaimEvent.IdleDetected awaitIdle(String key) {
        await().atMost(Duration.ofSeconds(20)).until(() -> !harness.eventsOf(key, ReclaimEvent.Reclaimed.class)
                .isEmpty());
        return harness.eventsOf(key, ReclaimEvent.IdleDetected.class).getFirst();
    }

    @Test
    void shouldRestartTheWindowWhenOneBusySampleArrives() {
        createIsvc("chat", 1, "chat-predictor-0");
        Device gpu = new Device("node-1", "GPU-chat", null, NS, "chat-predictor-0");
        Samples s = Samples.startingSoon(INTERVAL);
        List<GpuScrape> samples = new ArrayList<>(s.run(gpu, 0, 7, 0.01));
        samples.add(s.one(gpu, 8, 0.6));
        samples.addAll(s.run(gpu, 9, 20, 0.0));

        harness.send(samples);

        ReclaimEvent.IdleDetected idle = awaitIdle(NS + "/InferenceService/chat");
        assertThat(idle.idleSince()).isEqualTo(s.at(9));
        assertThat(idle.maxUtilization()).isLessThanOrEqualTo(0.05);
        InferenceService reclaimed = isvc("chat");
        assertThat(reclaimed.getSpec().getPredictor().getMinReplicas()).isZero();
        assertThat(ReclaimedState.parse(KubeResources.annotations(reclaimed).get(KubeResources.RECLAIMED_STATE))
                        .groups()
                        .getFirst()
                        .minReplicas())
                .isEqualTo(1);
    }

    @Test
    void shouldNeverCountAGapInSamplesAsIdle() {
        createIsvc("gappy", 2, "gappy-predictor-0");
        Device gpu = new Device("node-2", "GPU-gappy", null, NS, "gappy-predictor-0");
        Samples s = Samples.startingSoon(INTERVAL);

        harness.send(s.run(gpu, 0, 16, 0.0, Set.of(3, 4, 5)));

        ReclaimEvent.IdleDetected idle = awaitIdle(NS + "/InferenceService/gappy");
        assertThat(idle.idleSince()).isEqualTo(s.at(5));
        assertThat(idle.sampleCoverage()).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void shouldNotReclaimWhileADeviceOfTheWorkloadIsSilent() {
        createIsvc("pair", 1, "pair-predictor-0", "pair-predictor-1");
        Device live = new Device("node-3", "GPU-live", null, NS, "pair-predictor-0");
        Device silent = new Device("node-3", "GPU-silent", null, NS, "pair-predictor-1");
        Samples s = Samples.startingSoon(INTERVAL);
        harness.send(s.run(silent, 0, 3, 0.0));
        harness.send(s.run(live, 0, 30, 0.0));
        await().atMost(Duration.ofSeconds(10)).until(() -> harness.windows(NS + "/InferenceService/pair")
                .map(w -> w.lastSampleMillis() == s.at(30).toEpochMilli())
                .orElse(false));
        assertThat(harness.eventsOf(NS + "/InferenceService/pair")).isEmpty();

        // Only once the silent pod is gone may the live device's window decide alone.
        harness.client.pods().inNamespace(NS).withName("pair-predictor-1").delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.owners.ownerOf(NS, "pair-predictor-1").isEmpty());
        harness.send(s.one(live, 31, 0.0));

        ReclaimEvent.IdleDetected idle = awaitIdle(NS + "/InferenceService/pair");
        assertThat(harness.eventsOf(NS + "/InferenceService/pair", ReclaimEvent.IdleDetected.class))
                .hasSize(1);
        assertThat(idle.idleSince()).isEqualTo(s.at(22));
        assertThat(idle.devices()).isEqualTo(1);
    }

    @Test
    void shouldReclaimMigSlicesOnlyWhenEverySliceIsIdle() {
        createIsvc("embed", null, "nvidia.com/mig-1g.18gb", 2, "embed-predictor-0");
        Device slice1 = new Device("node-4", "GPU-mig", "1", NS, "embed-predictor-0");
        Device slice2 = new Device("node-4", "GPU-mig", "2", NS, "embed-predictor-0");
        Samples s = Samples.startingSoon(INTERVAL);
        List<GpuScrape> samples = new ArrayList<>();
        for (int slot = 0; slot <= 20; slot++) {
            samples.add(s.one(slice1, slot, 0.0));
            samples.add(s.one(slice2, slot, slot == 5 ? 0.4 : 0.02));
        }

        harness.send(samples);

        ReclaimEvent.IdleDetected idle = awaitIdle(NS + "/InferenceService/embed");
        assertThat(idle.idleSince())
                .as("the window starts after the busy slice's sample")
                .isAfterOrEqualTo(s.at(6));
        assertThat(idle.devices()).isEqualTo(2);
        ReclaimEvent.Reclaimed reclaimed = harness.eventsOf(
                        NS + "/InferenceService/embed", ReclaimEvent.Reclaimed.class)
                .getFirst();
        assertThat(reclaimed.gpusFreed()).isEqualTo(2);
        assertThat(isvc("embed").getSpec().getPredictor().getMinReplicas()).isZero();
    }

    @Test
    void shouldKeepTheWindowAndActOnceAcrossRestarts() throws Exception {
        createIsvc("restart", 1, "restart-predictor-0");
        Device gpu = new Device("node-5", "GPU-restart", null, NS, "restart-predictor-0");
        Samples s = Samples.startingSoon(INTERVAL);
        String key = NS + "/InferenceService/restart";
        try (ScaleWrites writes = ScaleWrites.watch(harness.client, InferenceService.class, NS)) {
            harness.send(s.run(gpu, 0, 5, 0.0));
            await().atMost(Duration.ofSeconds(10)).until(() -> harness.windows(key)
                    .map(w -> w.lastSampleMillis() == s.at(5).toEpochMilli())
                    .orElse(false));

            harness.restart();
            harness.send(s.run(gpu, 6, 12, 0.0));

            // The first window to close is the one ending in slot 8: 9 of its 10 slots hold a sample (90%).
            assertThat(awaitIdle(key).idleSince()).isEqualTo(s.at(-1));
            harness.restart();
            harness.send(s.run(gpu, 13, 20, 0.0));
            harness.send(s.one(gpu, 21, 0.9));
            harness.send(s.run(gpu, 22, 32, 0.0));

            await().atMost(Duration.ofSeconds(20))
                    .until(() ->
                            harness.eventsOf(key, ReclaimEvent.Reclaimed.class).size() >= 2);
            List<ReclaimEvent.IdleDetected> idles = harness.eventsOf(key, ReclaimEvent.IdleDetected.class);
            assertThat(idles).extracting(ReclaimEvent.IdleDetected::idleSince).containsExactly(s.at(-1), s.at(22));
            harness.restart();
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                            harness.eventsOf(key, ReclaimEvent.Reclaimed.class))
                    .as("one Reclaimed per idle episode")
                    .hasSize(2));
            assertThat(harness.intentsOf(key))
                    .filteredOn(ReclaimIntent.ReclaimRequested.class::isInstance)
                    .extracting(ReclaimIntent::windowId)
                    .hasSize(2)
                    .doesNotHaveDuplicates()
                    .allSatisfy(
                            window -> assertThat(writes.of(window)).as(window).isEqualTo(1));
            assertThat(ReclaimedState.parse(
                                    KubeResources.annotations(isvc("restart")).get(KubeResources.RECLAIMED_STATE))
                            .groups()
                            .getFirst()
                            .minReplicas())
                    .as("the values to restore are the original ones")
                    .isEqualTo(1);
        }
    }
}
