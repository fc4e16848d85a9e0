package io.gpuaas.reclaim.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.ray.v1.RayCluster;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the owner of a RayCluster sees of a ReclaimPending: the Event {@code kubectl describe} lists and the
 * {@code gpuaas.io/reclaim-at} annotation, taken off again when the cluster gets busy before the reclaim. The samples'
 * grid starts a minute ahead, so the projected reclaim is still ahead of the wall clock when the Event is written.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ReclaimAnnouncerIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-n";

    static ReclaimerHarness harness;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-n")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
    }

    private static List<Device> createCluster(String name, String worker) {
        harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .resource(Fixtures.rayCluster(NS, name, false, Map.of(), new Group("gpu", 1, 1)))
                .create();
        harness.client
                .pods()
                .inNamespace(NS)
                .resource(Fixtures.rayWorker(NS, name, "gpu", worker, 2))
                .create();
        WorkloadRef ref = new WorkloadRef(NS, "RayCluster", name);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory.find(ref).isPresent()
                        && harness.owners.ownerOf(NS, worker).isPresent());
        List<Device> devices = new ArrayList<>();
        devices.add(new Device("node-" + worker, "GPU-" + worker + "-0", null, NS, worker));
        devices.add(new Device("node-" + worker, "GPU-" + worker + "-1", null, NS, worker));
        return devices;
    }

    private static RayCluster cluster(String name) {
        return harness.client
                .resources(RayCluster.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private static List<Event> eventsOn(RayCluster cluster) {
        return harness.client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> cluster.getMetadata()
                        .getUid()
                        .equals(e.getInvolvedObject().getUid()))
                .toList();
    }

    @Test
    void shouldShowTheComingReclaimOnTheClusterAndTakeItOffWhenTheClusterGetsBusy() {
        List<Device> gpus = createCluster("notebook", "notebook-worker-0");
        String key = NS + "/RayCluster/notebook";
        long step = INTERVAL.toMillis();
        Samples s = new Samples(Instant.ofEpochMilli((System.currentTimeMillis() / step) * step + 60_000), INTERVAL);
        for (Device gpu : gpus) {
            harness.send(s.run(gpu, 0, 7, 0.0));
        }

        await().atMost(Duration.ofSeconds(15))
                .until(() -> !harness.noticesOf(key).isEmpty());
        Notice.ReclaimPending notice = harness.noticesOf(key).getFirst();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                        KubeResources.annotations(cluster("notebook")))
                .containsEntry(ReclaimAnnouncer.RECLAIM_AT, notice.reclaimAt().toString()));
        RayCluster announced = cluster("notebook");
        await().atMost(Duration.ofSeconds(10)).until(() -> !eventsOn(announced).isEmpty());
        Event event = eventsOn(announced).getFirst();
        assertThat(event.getReason()).isEqualTo("ReclaimPending");
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("RayCluster");
        assertThat(event.getInvolvedObject().getName()).isEqualTo("notebook");
        assertThat(event.getMessage()).contains(notice.reclaimAt().toString());
        assertThat(announced.getSpec().getWorkerGroupSpecs().getFirst().getReplicas())
                .as("announced, not reclaimed")
                .isEqualTo(1);

        harness.send(s.one(gpus.getFirst(), 8, 0.8));

        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(KubeResources.annotations(cluster("notebook")))
                        .doesNotContainKey(ReclaimAnnouncer.RECLAIM_AT));
        assertThat(harness.intentsOf(key)).extracting(ReclaimIntent::windowId).containsExactly(notice.windowId());
        assertThat(eventsOn(announced)).as("one Event per notice").hasSize(1);
    }
}
