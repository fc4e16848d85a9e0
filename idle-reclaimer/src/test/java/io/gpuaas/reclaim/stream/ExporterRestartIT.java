package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.Samples;
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
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An exporter restart in the middle of an idle window, through the whole reclaim pipeline (real broker, CRUD mock
 * API, 2 s window of 200 ms slots). The scrapes are whole-node records in the label shape of a real dcgm-exporter
 * DaemonSet pod: the exporter's {@code Hostname} label is its own pod name, which changes on restart. Keyed by the
 * node metrics-gateway knows, the devices keep their keys and the workload is reclaimed as if nothing had happened;
 * keyed by the label, as the gateway used to, the same workload is never reclaimed (its old device keys stay with the
 * live pod and leave the window short of coverage: {@code LOW_COVERAGE} for as long as the pod lives).
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ExporterRestartIT {

    static final Duration INTERVAL = Duration.ofMillis(200);
    static final IdlePolicy POLICY = new IdlePolicy(0.05, Duration.ofSeconds(2), INTERVAL, 0.9, Duration.ZERO, true);
    static final String NS = "team-r";
    static final String MIG = "nvidia.com/mig-1g.6gb";
    /** The slot the exporter is down in; from the next one on it answers under a new pod name. */
    static final int RESTART = 6;

    static ReclaimerHarness harness;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        api.client().namespaces().resource(Fixtures.namespace(NS, "team-r")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
    }

    @Test
    void shouldReclaimAWorkloadIdleAcrossAnExporterRestartAsIfNoRestartHappened() {
        String steady = predictor("steady");
        String untouched = predictor("untouched");
        Samples s = Samples.startingSoon(INTERVAL);

        // The node's exporter restarts mid-window; another node's exporter runs throughout.
        harness.send(node(s, 14, "gpu-a30-1", slot -> exporterPod(slot), steady));
        harness.send(node(s, 14, "gpu-a30-2", slot -> "dcgm-exporter-q8m4z", untouched));

        ReclaimEvent.IdleDetected restarted = awaitReclaimed("steady");
        ReclaimEvent.IdleDetected control = awaitReclaimed("untouched");
        assertThat(restarted.idleSince())
                .as("the window that began before the restart is the one that closed")
                .isEqualTo(control.idleSince())
                .isEqualTo(s.at(0));
        assertThat(restarted.devices()).isEqualTo(1);
        assertThat(restarted.sampleCoverage())
                .as("only the slot the exporter was down is missing")
                .isEqualTo(0.9);
        assertThat(isvc("steady").getSpec().getPredictor().getMinReplicas()).isZero();
    }

    @Test
    void shouldNeverReclaimTheWorkloadWhenItsDevicesAreKeyedByTheExporterPodName() {
        String relabelled = predictor("relabelled");
        Samples s = Samples.startingSoon(INTERVAL);
        int last = 30;

        // What the gateway published before it preferred the known node: the Hostname label named the node.
        List<GpuScrape> scrapes = new ArrayList<>();
        for (GpuScrape scrape : node(s, last, "gpu-a30-3", slot -> exporterPod(slot), relabelled)) {
            String label = scrape.devices().getFirst().hostnameLabel();
            scrapes.add(new GpuScrape(scrape.time(), label, scrape.target(), scrape.devices()));
        }
        String key = NS + "/InferenceService/relabelled";
        // Two node keys are two input partitions: the scrapes from before the restart must be read first, as they are
        // when they arrive in real time.
        harness.send(scrapes.subList(0, RESTART));
        await().atMost(Duration.ofSeconds(20)).until(() -> harness.windows(key)
                .map(w -> w.lastSampleMillis() == s.at(RESTART - 1).toEpochMilli())
                .orElse(false));
        harness.send(scrapes.subList(RESTART, scrapes.size()));

        await().atMost(Duration.ofSeconds(20)).until(() -> harness.windows(key)
                .map(w -> w.lastSampleMillis() == s.at(last).toEpochMilli())
                .orElse(false));
        assertThat(harness.eventsOf(key))
                .as("three windows of idle samples, yet the pre-restart device key never comes back")
                .isEmpty();
        assertThat(isvc("relabelled").getSpec().getPredictor().getMinReplicas()).isEqualTo(1);
    }

    /** The exporter pod that answered in {@code slot}: restarted under a new name after {@link #RESTART}. */
    private static String exporterPod(int slot) {
        return slot < RESTART ? "dcgm-exporter-wwwjh" : "dcgm-exporter-x7k2p";
    }

    /**
     * Scrapes of an A30 node with MIG on, slots 0 to {@code last} but {@link #RESTART}: instance 3 held by
     * {@code pod} and idle, instance 4 and an RTX GPU unattributed. {@code exporter} names the answering pod per slot.
     */
    private static List<GpuScrape> node(Samples s, int last, String node, IntFunction<String> exporter, String pod) {
        String a30 = "GPU-" + node + "-a30";
        List<GpuScrape> scrapes = new ArrayList<>();
        for (int slot = 0; slot <= last; slot++) {
            if (slot == RESTART) {
                continue;
            }
            String label = exporter.apply(slot);
            scrapes.add(new GpuScrape(
                    s.at(slot),
                    node,
                    "10.0.3." + slot + ":9400",
                    List.of(
                            device(a30, 0, "NVIDIA A30", "3", "1g.6gb", label, pod, 0.0),
                            device(a30, 0, "NVIDIA A30", "4", "1g.6gb", label, null, 0.0),
                            device(
                                    "GPU-" + node + "-rtx",
                                    1,
                                    "NVIDIA GeForce RTX 3090",
                                    null,
                                    null,
                                    label,
                                    null,
                                    0.07))));
        }
        return scrapes;
    }

    private static GpuScrape.Device device(
            String uuid, int index, String model, String instance, String profile, String label, String pod, double u) {
        return new GpuScrape.Device(
                uuid,
                index,
                model,
                instance,
                profile,
                label,
                pod == null ? null : NS,
                pod,
                pod == null ? null : "main",
                u,
                "GR_ENGINE_ACTIVE",
                512.0,
                5_000.0,
                30.0);
    }

    /** An InferenceService whose one predictor pod asks for one 1g.6gb MIG instance; returns the pod's name. */
    private static String predictor(String name) {
        String pod = name + "-predictor-0";
        harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .resource(Fixtures.inferenceService(NS, name, 1, Map.of()))
                .create();
        harness.client
                .pods()
                .inNamespace(NS)
                .resource(Fixtures.predictor(NS, name, pod, MIG, 1))
                .create();
        WorkloadRef ref = new WorkloadRef(NS, "InferenceService", name);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> harness.directory.find(ref).isPresent()
                        && harness.owners.ownerOf(NS, pod).isPresent());
        return pod;
    }

    private static ReclaimEvent.IdleDetected awaitReclaimed(String name) {
        String key = NS + "/InferenceService/" + name;
        await().atMost(Duration.ofSeconds(20)).until(() -> !harness.eventsOf(key, ReclaimEvent.Reclaimed.class)
                .isEmpty());
        return harness.eventsOf(key, ReclaimEvent.IdleDetected.class).getFirst();
    }

    private static InferenceService isvc(String name) {
        return harness.client
                .resources(InferenceService.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }
}
