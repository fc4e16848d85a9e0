package io.gpuaas.reclaim.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.Fixtures.Group;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.reclaim.ScaleWrites;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.KubeResources;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An API server that answers one RayCluster's update seconds late. The stream decides without it, so windows keep
 * closing and other workloads keep being decided and applied meanwhile; the hanging one is reclaimed once.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class SlowApiServerIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-slow";
    static final Duration HANG = Duration.ofSeconds(8);
    static final String SLOW = NS + "/RayCluster/slow";
    static final List<String> QUICK = List.of("quick-1", "quick-2", "quick-3");

    static ReclaimerHarness harness;
    static KubernetesApi api;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi kubernetes) throws Exception {
        api = kubernetes;
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-slow")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        api.clearDelays();
        harness.close();
    }

    private static void createWorkloads() {
        harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .resource(Fixtures.rayCluster(NS, "slow", false, Map.of(), new Group("gpu", 1, 1)))
                .create();
        harness.client
                .pods()
                .inNamespace(NS)
                .resource(Fixtures.rayWorker(NS, "slow", "gpu", "slow-worker-0", 1))
                .create();
        for (String name : QUICK) {
            harness.client
                    .resources(InferenceService.class)
                    .inNamespace(NS)
                    .resource(Fixtures.inferenceService(NS, name, 1, Map.of()))
                    .create();
            harness.client
                    .pods()
                    .inNamespace(NS)
                    .resource(Fixtures.predictor(NS, name, name + "-predictor-0", "nvidia.com/gpu", 1))
                    .create();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory
                                .find(new WorkloadRef(NS, "RayCluster", "slow"))
                                .isPresent()
                        && harness.owners.ownerOf(NS, "slow-worker-0").isPresent()
                        && QUICK.stream()
                                .allMatch(q -> harness.directory
                                                .find(new WorkloadRef(NS, "InferenceService", q))
                                                .isPresent()
                                        && harness.owners
                                                .ownerOf(NS, q + "-predictor-0")
                                                .isPresent()));
    }

    private static boolean reclaimed(String key) {
        return !harness.eventsOf(key, ReclaimEvent.Reclaimed.class).isEmpty();
    }

    private static boolean updateHanging() {
        var cluster = harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .withName("slow")
                .get();
        return KubeResources.annotations(cluster).containsKey(KubeResources.RECLAIMED_STATE) && !reclaimed(SLOW);
    }

    @Test
    void shouldKeepDecidingAndApplyingOtherWorkloadsWhileOneUpdateHangs() {
        createWorkloads();
        try (ScaleWrites writes = ScaleWrites.watch(harness.client, RayCluster.class, NS)) {
            api.delayResponses("PUT", "/rayclusters/slow", HANG);
            harness.send(Samples.startingSoon(INTERVAL)
                    .run(new Device("node-s", "GPU-slow", null, NS, "slow-worker-0"), 0, 12, 0.0));
            // The API server has taken the update (the object carries the window id); its answer has not come.
            await().atMost(Duration.ofSeconds(20)).until(SlowApiServerIT::updateHanging);

            Samples later = Samples.startingSoon(INTERVAL);
            for (String name : QUICK) {
                harness.send(
                        later.run(new Device("node-q", "GPU-" + name, null, NS, name + "-predictor-0"), 0, 12, 0.0));
            }

            await().atMost(HANG).until(() -> QUICK.stream()
                    .map(q -> NS + "/InferenceService/" + q)
                    .allMatch(q -> !harness.eventsOf(q, ReclaimEvent.IdleDetected.class)
                                    .isEmpty()
                            && !harness.intentsOf(q).isEmpty()
                            && reclaimed(q)));
            assertThat(reclaimed(SLOW))
                    .as("the slow update still hangs while the others were applied")
                    .isFalse();

            await().atMost(Duration.ofSeconds(30)).until(() -> reclaimed(SLOW));
            String window = harness.intentsOf(SLOW).getFirst().windowId();
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                assertThat(harness.eventsOf(SLOW, ReclaimEvent.Reclaimed.class)).hasSize(1);
                assertThat(harness.intentsOf(SLOW)).singleElement().isInstanceOf(ReclaimIntent.ReclaimRequested.class);
            });
            assertThat(writes.of(window)).as("scale writes carrying " + window).isEqualTo(1);
        } finally {
            api.clearDelays();
        }
    }
}
