package io.gpuaas.local.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Labels;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.DcgmTextWriter;
import io.gpuaas.local.fleet.DeviceAllocator;
import io.gpuaas.local.fleet.FleetLayout;
import io.gpuaas.local.fleet.FleetServer;
import io.gpuaas.local.fleet.FleetState;
import io.gpuaas.local.fleet.GpuLayout;
import io.gpuaas.local.fleet.PromText;
import io.gpuaas.local.fleet.UtilizationModel;
import io.gpuaas.local.k8s.ClusterSeeder;
import io.gpuaas.local.k8s.Tenant;
import io.gpuaas.local.operator.PodNaming;
import io.gpuaas.testing.k8s.KubernetesApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MIG manager stand-in against the in-memory API: the flexible node gpu-node-3 (8 H200s, MIG disabled) beside
 * the default static fleet, a mig-parted ConfigMap as quota-projector writes it, and the exporters over HTTP.
 */
class MigManagerIT {

    private static final String NODE = "gpu-node-3";
    private static final Duration DELAY = Duration.ofSeconds(5);
    private static final String CONFIG = """
            version: v1
            mig-configs:
              all-disabled:
                - devices: all
                  mig-enabled: false
              gpuaas-flex-a:
                - devices: [0]
                  mig-enabled: true
                  mig-devices: {"3g.71gb": 1, "2g.35gb": 1, "1g.18gb": 2}
                - devices: [1, 2]
                  mig-enabled: true
                  mig-devices: {"1g.35gb": 4}
                - devices: [3, 4, 5, 6, 7]
                  mig-enabled: false
              gpuaas-flex-b:
                - devices: [0]
                  mig-enabled: true
                  mig-devices: {"7g.141gb": 1}
                - devices: [1, 2]
                  mig-enabled: true
                  mig-devices: {"1g.35gb": 4}
              gpuaas-flex-c:
                - devices: [0]
                  mig-enabled: true
                  mig-devices: {"3g.71gb": 1, "2g.35gb": 1, "1g.18gb": 2}
                - devices: [1, 2]
                  mig-enabled: true
                  mig-devices: {"1g.35gb": 4}
                - devices: [7]
                  mig-enabled: true
                  mig-devices: {"4g.71gb": 1}
            """;

    private final FleetLayout layout = FleetLayout.of(16, 8);
    private final MutableClock clock = new MutableClock();
    private KubernetesApi api;
    private KubernetesClient client;
    private FleetState fleet;
    private DeviceAllocator allocator;
    private MigManagerStandIn manager;
    private FleetServer exporters;

    @BeforeEach
    void seed() throws Exception {
        api = KubernetesApi.start(0);
        client = api.client();
        new ClusterSeeder(client).seed(layout, layout.pools(), Tenant.demo(2));
        client.configMaps()
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withNamespace(MigPartedConfig.NAMESPACE)
                        .withName(MigPartedConfig.NAME)
                        .endMetadata()
                        .withData(Map.of(MigPartedConfig.KEY, CONFIG))
                        .build())
                .create();
        fleet = new FleetState(layout);
        allocator = new DeviceAllocator(client, fleet);
        manager = new MigManagerStandIn(client, fleet, allocator::gpusInUse, DELAY, clock);
        exporters = new FleetServer(
                fleet,
                0,
                new DcgmTextWriter(new UtilizationModel(Duration.ofMinutes(4), Duration.ofMinutes(5))),
                allocator::attributions,
                clock);
    }

    @AfterEach
    void stop() {
        exporters.close();
        api.close();
    }

    @Test
    void shouldApplyTheConfigAfterTheDelayWhenTheNodeLabelChanges() throws Exception {
        requestConfig("gpuaas-flex-a");
        pass();

        assertThat(state()).isEqualTo(MigManagerStandIn.PENDING);
        assertThat(allocatable()).containsEntry("nvidia.com/gpu", "8").doesNotContainKey("nvidia.com/mig-1g.35gb");

        clock.advance(DELAY.minusSeconds(1));
        pass();
        assertThat(state()).as("still within the delay").isEqualTo(MigManagerStandIn.PENDING);

        clock.advance(Duration.ofSeconds(1));
        pass();

        assertThat(state()).isEqualTo(MigManagerStandIn.SUCCESS);
        assertThat(allocatable())
                .containsEntry("nvidia.com/gpu", "5")
                .containsEntry("nvidia.com/mig-3g.71gb", "1")
                .containsEntry("nvidia.com/mig-2g.35gb", "1")
                .containsEntry("nvidia.com/mig-1g.18gb", "2")
                .containsEntry("nvidia.com/mig-1g.35gb", "8");
        assertThat(node().getMetadata().getLabels())
                .containsEntry("nvidia.com/mig-1g.35gb.count", "8")
                .containsEntry(MigManagerStandIn.CONFIG_LABEL, "gpuaas-flex-a");
        PromText scrape = scrape();
        // GPU 0: 3g.71gb must take slices 4-7 for both 1g.18gb to fit, so the geometry's first fit is
        // 2g.35gb@0, 1g.18gb@2, 1g.18gb@3, 3g.71gb@4; GPUs 1 and 2 hold 1g.35gb at 0, 2, 4 and 6.
        assertThat(instances(scrape, "0")).containsExactly("2g.35gb/3", "1g.18gb/9", "1g.18gb/10", "3g.71gb/2");
        assertThat(instances(scrape, "1")).containsExactly("1g.35gb/3", "1g.35gb/4", "1g.35gb/5", "1g.35gb/6");
        assertThat(scrape.named("DCGM_FI_DEV_GPU_UTIL"))
                .as("only the five whole GPUs report GPU_UTIL")
                .extracting(sample -> sample.labels().get("gpu"))
                .containsExactly("3", "4", "5", "6", "7");
    }

    @Test
    void shouldLayInstancesAtTheAnnotatedStartsWhenTheAnnotationMatchesTheConfigsCounts() throws Exception {
        annotate(MigLayoutAnnotation.render(Map.of(
                0,
                GpuLayout.mig(List.of(
                        MigPlacement.of("1g.18gb", 0),
                        MigPlacement.of("1g.18gb", 1),
                        MigPlacement.of("2g.35gb", 2),
                        MigPlacement.of("3g.71gb", 4))),
                1,
                GpuLayout.mig(List.of(MigPlacement.of("1g.35gb", 0))),
                3,
                GpuLayout.WHOLE)));
        apply("gpuaas-flex-a");

        assertThat(state()).isEqualTo(MigManagerStandIn.SUCCESS);
        PromText scrape = scrape();
        assertThat(instances(scrape, "0")).containsExactly("1g.18gb/7", "1g.18gb/8", "2g.35gb/4", "3g.71gb/2");
        assertThat(instances(scrape, "1"))
                .as("the annotation lists one 1g.35gb where the config has four: counts decide, the geometry places")
                .containsExactly("1g.35gb/3", "1g.35gb/4", "1g.35gb/5", "1g.35gb/6");
    }

    @Test
    void shouldBindAPodToAFreeInstanceOfItsProfileWhenTheFlexibleNodeWasLaidOut() {
        apply("gpuaas-flex-a");

        client.pods().resource(pod("small", "nvidia.com/mig-1g.35gb")).create();
        pass();

        assertThat(client.pods()
                        .inNamespace("team-a")
                        .withName("small")
                        .get()
                        .getSpec()
                        .getNodeName())
                .isEqualTo(NODE);
        assertThat(allocator.gpusInUse(NODE)).containsExactly(1);
    }

    @Test
    void shouldFailAndKeepTheLayoutWhenAPodHoldsAGpuTheConfigWouldChange() throws Exception {
        apply("gpuaas-flex-a");
        client.pods().resource(pod("small", "nvidia.com/mig-1g.35gb")).create();
        pass();
        assertThat(allocator.gpusInUse(NODE)).containsExactly(1);

        apply("gpuaas-flex-b");
        assertThat(state())
                .as("GPU 1, which the pod holds, keeps its layout under gpuaas-flex-b")
                .isEqualTo(MigManagerStandIn.SUCCESS);
        assertThat(allocatable()).containsEntry("nvidia.com/mig-7g.141gb", "1").containsEntry("nvidia.com/gpu", "5");

        requestConfig(MigPartedConfig.ALL_DISABLED);
        pass();
        client.pods().resource(pod("late", "nvidia.com/mig-1g.35gb")).create();
        pass();
        assertThat(client.pods()
                        .inNamespace("team-a")
                        .withName("late")
                        .get()
                        .getSpec()
                        .getNodeName())
                .as("no device of a pending node is handed out")
                .isNull();
        clock.advance(DELAY);
        pass();

        assertThat(state()).isEqualTo(MigManagerStandIn.FAILED);
        assertThat(node().getMetadata().getLabels()).containsEntry(MigManagerStandIn.CONFIG_LABEL, "all-disabled");
        assertThat(allocatable())
                .as("layout unchanged")
                .containsEntry("nvidia.com/mig-7g.141gb", "1")
                .containsEntry("nvidia.com/mig-1g.35gb", "8")
                .containsEntry("nvidia.com/gpu", "5");
        assertThat(instances(scrape(), "1")).hasSize(4);
        pass();
        assertThat(client.pods()
                        .inNamespace("team-a")
                        .withName("late")
                        .get()
                        .getSpec()
                        .getNodeName())
                .as("the node's devices are handed out again")
                .isEqualTo(NODE);
    }

    @Test
    void shouldFailWhenTheLabelNamesAConfigTheConfigMapDoesNotHold() throws Exception {
        apply("gpuaas-flex-z");

        assertThat(state()).isEqualTo(MigManagerStandIn.FAILED);
        assertThat(allocatable()).containsEntry("nvidia.com/gpu", "8");
        assertThat(scrape().named("DCGM_FI_DEV_GPU_UTIL")).hasSize(8);
    }

    @Test
    void shouldKnowOnlyAllDisabledWhenNoMigPartedConfigMapExists() {
        client.configMaps()
                .inNamespace(MigPartedConfig.NAMESPACE)
                .withName(MigPartedConfig.NAME)
                .delete();

        apply("gpuaas-flex-a");
        assertThat(state()).isEqualTo(MigManagerStandIn.FAILED);

        apply(MigPartedConfig.ALL_DISABLED);
        assertThat(state()).isEqualTo(MigManagerStandIn.SUCCESS);
    }

    private void apply(String config) {
        requestConfig(config);
        pass();
        clock.advance(DELAY);
        pass();
    }

    private void annotate(String layout) {
        client.nodes().withName(NODE).edit(n -> {
            n.getMetadata().setAnnotations(Map.of(Labels.MIG_LAYOUT, layout));
            return n;
        });
    }

    /** profile/GPU_I_ID of GPU {@code gpu}'s instances, in the exporter's order. */
    private static List<String> instances(PromText scrape, String gpu) {
        return scrape.named("DCGM_FI_PROF_GR_ENGINE_ACTIVE").stream()
                .filter(s -> s.labels().get("gpu").equals(gpu) && s.labels().containsKey("GPU_I_PROFILE"))
                .map(s -> s.labels().get("GPU_I_PROFILE") + "/" + s.labels().get("GPU_I_ID"))
                .toList();
    }

    private void requestConfig(String config) {
        client.nodes().withName(NODE).edit(n -> {
            n.getMetadata().getLabels().put(MigManagerStandIn.CONFIG_LABEL, config);
            return n;
        });
    }

    private void pass() {
        allocator.reconcile(List.of());
        manager.reconcile();
    }

    private Node node() {
        return client.nodes().withName(NODE).get();
    }

    private String state() {
        return node().getMetadata().getLabels().get(MigManagerStandIn.STATE_LABEL);
    }

    private Map<String, String> allocatable() {
        Map<String, String> amounts = new java.util.TreeMap<>();
        node().getStatus().getAllocatable().forEach((k, v) -> amounts.put(k, v.getAmount()));
        return amounts;
    }

    /** The flexible node's exporter, over HTTP. */
    private PromText scrape() throws Exception {
        String url = exporters.urls().get(2);
        try (HttpClient http = HttpClient.newHttpClient()) {
            return PromText.parse(
                    http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                            .body());
        }
    }

    private static Pod pod(String name, String resource) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("team-a")
                .withLabels(Map.of(PodNaming.SIMULATED_LABEL, "true"))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withNewResources()
                .withLimits(Map.of(resource, new Quantity("1")))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** A clock the test moves. */
    private static final class MutableClock extends Clock {

        private Instant now = Instant.parse("2026-11-28T05:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
