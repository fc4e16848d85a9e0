package io.gpuaas.reclaim.k8s;

import static io.gpuaas.reclaim.Fixtures.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.Fixtures.Group;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** RayCluster worker groups: multi-GPU groups, in-tree autoscaling, Kueue, and resume to the exact values. */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class RayClusterReclaimIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-b";

    static ReclaimerHarness harness;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-b")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
    }

    private static List<Device> createCluster(String name, Map<String, String> labels, String... workers) {
        harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .resource(
                        Fixtures.rayCluster(NS, name, true, labels, new Group("gpu", 2, 1), new Group("cpu", 3, null)))
                .create();
        List<Device> devices = new ArrayList<>();
        for (String worker : workers) {
            harness.client
                    .pods()
                    .inNamespace(NS)
                    .resource(Fixtures.rayWorker(NS, name, "gpu", worker, 2))
                    .create();
            devices.add(new Device("node-" + worker, "GPU-" + worker + "-0", null, NS, worker));
            devices.add(new Device("node-" + worker, "GPU-" + worker + "-1", null, NS, worker));
        }
        WorkloadRef ref = new WorkloadRef(NS, "RayCluster", name);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory.find(ref).isPresent()
                        && List.of(workers).stream()
                                .allMatch(w -> harness.owners.ownerOf(NS, w).isPresent()));
        return devices;
    }

    private static RayCluster cluster(String name) {
        return harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    /** Every device idle for slots 0..to, except {@code busy} at {@code busySlot}. */
    private static List<GpuScrape> fleet(Samples s, List<Device> devices, int to, Device busy, int busySlot) {
        List<GpuScrape> samples = new ArrayList<>();
        for (int slot = 0; slot <= to; slot++) {
            for (Device d : devices) {
                samples.add(s.one(d, slot, d.equals(busy) && slot == busySlot ? 0.7 : 0.0));
            }
        }
        return samples;
    }

    @Test
    void shouldReclaimAMultiGpuGroupOnlyWhenAllItsDevicesAreIdleAndRestoreItExactlyOnResume() {
        List<Device> devices = createCluster("train", Map.of(), "train-worker-a", "train-worker-b");
        Samples s = Samples.startingSoon(INTERVAL);
        String key = NS + "/RayCluster/train";

        harness.send(fleet(s, devices, 24, devices.get(3), 6));

        await().atMost(Duration.ofSeconds(20)).until(() -> !harness.eventsOf(key, ReclaimEvent.Reclaimed.class)
                .isEmpty());
        ReclaimEvent.IdleDetected idle =
                harness.eventsOf(key, ReclaimEvent.IdleDetected.class).getFirst();
        assertThat(idle.idleSince())
                .as("the window starts after the busy sample")
                .isAfterOrEqualTo(s.at(7));
        ReclaimEvent.Reclaimed reclaimed =
                harness.eventsOf(key, ReclaimEvent.Reclaimed.class).getFirst();
        assertThat(reclaimed.gpusFreed()).isEqualTo(4);
        assertThat(reclaimed.groups()).containsExactly(new ReclaimEvent.ScaledGroup("gpu", 2, 1, 0));
        assertThat(reclaimed.tenant()).isEqualTo("team-b");
        RayCluster scaled = cluster("train");
        assertThat(group(scaled, "gpu"))
                .extracting(WorkerGroupSpecs::getReplicas, WorkerGroupSpecs::getMinReplicas)
                .containsExactly(0, 0);
        assertThat(group(scaled, "gpu").getScaleStrategy().getWorkersToDelete())
                .containsExactly("train-worker-a", "train-worker-b");
        assertThat(group(scaled, "cpu").getReplicas())
                .as("CPU-only groups are not ours")
                .isEqualTo(3);

        harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .withName("train")
                .edit(c -> {
                    c.getMetadata().getAnnotations().put(KubeResources.RESUME, "true");
                    return c;
                });

        await().atMost(Duration.ofSeconds(10))
                .until(() -> !harness.eventsOf(key, ReclaimEvent.Resumed.class).isEmpty());
        RayCluster resumed = cluster("train");
        assertThat(group(resumed, "gpu"))
                .extracting(
                        WorkerGroupSpecs::getReplicas,
                        WorkerGroupSpecs::getMinReplicas,
                        WorkerGroupSpecs::getScaleStrategy)
                .containsExactly(2, 1, null);
        assertThat(KubeResources.annotations(resumed))
                .doesNotContainKeys(KubeResources.RECLAIMED_STATE, KubeResources.RESUME)
                .containsKey(KubeResources.RESUMED_AT);
        assertThat(harness.eventsOf(key, ReclaimEvent.Resumed.class).getFirst().groups())
                .containsExactly(new ReclaimEvent.ScaledGroup("gpu", 0, 0, 2));
    }

    @Test
    void shouldSkipAKueueManagedClusterThatIsNotElastic() {
        List<Device> devices =
                createCluster("queued", Map.of(KubeResources.KUEUE_QUEUE_LABEL, "gpuaas"), "queued-worker-a");
        Samples s = Samples.startingSoon(INTERVAL);
        String key = NS + "/RayCluster/queued";
        String before = cluster("queued").getMetadata().getResourceVersion();

        harness.send(fleet(s, devices, 12, null, -1));

        await().atMost(Duration.ofSeconds(20)).until(() -> !harness.eventsOf(key, ReclaimEvent.ReclaimSkipped.class)
                .isEmpty());
        assertThat(harness.eventsOf(key, ReclaimEvent.ReclaimSkipped.class)
                        .getFirst()
                        .reason())
                .isEqualTo("KUEUE_NON_ELASTIC");
        assertThat(cluster("queued").getMetadata().getResourceVersion()).isEqualTo(before);
    }
}
