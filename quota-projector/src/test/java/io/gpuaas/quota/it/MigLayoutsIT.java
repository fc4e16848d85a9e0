package io.gpuaas.quota.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.gpuaas.events.Labels;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.PlacedUnit;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.mig.GpuLayout;
import io.gpuaas.quota.mig.LayoutAnnotation;
import io.gpuaas.quota.mig.NodeLayout;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Flexible pools' layouts against the CRUD mock API server and a real broker: the test plays the GPU Operator's MIG
 * manager (state label, allocatable) and the kubelet (a bound pod). One projector (holding the Lease) serves the class;
 * each test uses its own node and tenant.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MigLayoutsIT {

    private static final String FLAVOR = "h200-flex";
    private static final Pool FLEX = Pool.flexible(
            "h200-flex",
            FLAVOR,
            "NVIDIA H200",
            null,
            List.of(new PoolNode("flex-1", 2), new PoolNode("flex-2", 1), new PoolNode("flex-3", 1)));
    private static final FlavorResource THREE_G = new FlavorResource(FLAVOR, "nvidia.com/mig-3g.71gb");
    private static final FlavorResource ONE_G = new FlavorResource(FLAVOR, "nvidia.com/mig-1g.18gb");

    private ProjectorFixture fixture;
    private KubernetesClient projectorClient;
    private final PrometheusRegistry registry = new PrometheusRegistry();

    @BeforeAll
    void start(KubernetesClient client, KafkaBroker broker) throws Exception {
        fixture = new ProjectorFixture(client, broker);
        node("flex-1", 2);
        node("flex-2", 1);
        node("flex-3", 1);
        List<Pool> pools = new ArrayList<>(PoolCatalog.load(Optional.empty()).pools());
        pools.add(FLEX);
        projectorClient = new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("field-selector", new NodeNameSelector()))
                .build();
        QuotaProjector projector = fixture.start(
                projectorClient,
                new PoolCatalog(pools),
                MigLayoutSettings.defaults()
                        .withTiming(Duration.ofMinutes(10), Duration.ofMinutes(3), Duration.ofMillis(500)),
                registry);
        await().atMost(Duration.ofSeconds(20)).until(projector::leading);
    }

    @AfterAll
    void stop() {
        fixture.close();
        projectorClient.close();
    }

    /**
     * The CRUD mock evaluates only {@code metadata.name}/{@code metadata.namespace} field selectors and answers an
     * empty list for {@code spec.nodeName}; the real API server filters pods by node. This interceptor drops that
     * selector, so the mock returns every pod and the projector's own check of {@code spec.nodeName} (which it does
     * in case a server ignores the selector) picks the node's pods: the decision the test sees is the code's.
     */
    private static final class NodeNameSelector implements Interceptor {
        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            URI uri = request.uri();
            String query = uri.getRawQuery();
            if (query != null && uri.getPath().endsWith("/pods") && query.contains("fieldSelector=spec.nodeName")) {
                String kept = java.util.Arrays.stream(query.split("&"))
                        .filter(p -> !p.startsWith("fieldSelector="))
                        .collect(java.util.stream.Collectors.joining("&"));
                builder.uri(URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath()
                        + (kept.isEmpty() ? "" : "?" + kept)));
            }
        }
    }

    @Test
    void shouldLayOutMixedProfilesBeforeTheWindowAndGiveKueueQuotaPerProfileAtTheBoundary() throws Exception {
        fixture.tenantNamespace("mig-a", "mig-a");
        Instant start = Instant.now().plusSeconds(8);
        fixture.publish(booking("b-3g", "mig-a", start, List.of(PlacedUnit.mig("flex-1", 1, "3g.71gb", 4))));
        fixture.publish(booking(
                "b-1g",
                "mig-a",
                start,
                List.of(PlacedUnit.mig("flex-1", 1, "1g.18gb", 0), PlacedUnit.mig("flex-1", 1, "1g.18gb", 1))));
        NodeLayout expected = NodeLayout.allWhole(2)
                .with(Map.of(
                        1,
                        GpuLayout.mig(List.of(
                                MigPlacement.of("1g.18gb", 0),
                                MigPlacement.of("1g.18gb", 1),
                                MigPlacement.of("3g.71gb", 4)))));

        await().atMost(Duration.ofSeconds(5))
                .until(() -> expected.configName().equals(label("flex-1", "nvidia.com/mig.config")));
        assertThat(Instant.now()).as("asked for ahead of the window").isBefore(start);
        assertThat(node("flex-1").getMetadata().getAnnotations())
                .containsEntry(Labels.MIG_LAYOUT, LayoutAnnotation.write(expected));
        String config = configYaml();
        assertThat(config)
                .startsWith(
                        "version: v1\nmig-configs:\n  all-disabled:\n    - devices: all\n      mig-enabled: false\n")
                .contains("  " + expected.configName() + ":\n    - devices: [0]\n      mig-enabled: false\n"
                        + "    - devices: [1]\n      mig-enabled: true\n      mig-devices:\n"
                        + "        \"1g.18gb\": 2\n        \"3g.71gb\": 1\n");
        assertThat(Metrics.sum(registry, "gpuaas_mig_layout_changes", "outcome", "requested"))
                .isPositive();

        // The MIG manager applies it: the device plugin now offers the slices (the layouts in force).
        migManagerApplied(
                "flex-1",
                "success",
                Map.of("nvidia.com/gpu", "1", "nvidia.com/mig-1g.18gb", "2", "nvidia.com/mig-3g.71gb", "1"));
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(cohort(), THREE_G) == 1);
        assertThat(clusterQueue("mig-a")).as("no quota before the window").isNull();

        await().atMost(Duration.ofSeconds(12))
                .pollInterval(Duration.ofMillis(50))
                .until(() ->
                        nominal(clusterQueue("mig-a"), THREE_G) == 1 && nominal(clusterQueue("mig-a"), ONE_G) == 2);
        assertThat(Instant.now()).isAfterOrEqualTo(start);
        assertThat(nominal(cohort(), THREE_G)).as("in force 1, booked 1").isZero();
        assertThat(nominal(cohort(), ONE_G)).isZero();
    }

    @Test
    void shouldNotChangeANodeWhileAPodBoundToItHoldsAGpuItWouldChange() throws Exception {
        fixture.client
                .pods()
                .inNamespace("mig-b")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("trainer")
                        .withNamespace("mig-b")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("flex-2")
                        .addNewContainer()
                        .withName("main")
                        .withImage("example/trainer")
                        .withNewResources()
                        .addToLimits("nvidia.com/gpu", new Quantity("1"))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
        fixture.publish(booking(
                "b-7g", "mig-b", Instant.now().plusSeconds(120), List.of(PlacedUnit.mig("flex-2", 0, "7g.141gb", 0))));

        await().atMost(Duration.ofSeconds(5))
                .until(() -> Metrics.sum(registry, "gpuaas_mig_layout_nodes_not_ready", "state", "blocked") >= 1);
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(3))
                .until(() -> label("flex-2", "nvidia.com/mig.config") == null);
    }

    @Test
    void shouldNoticeTheTeamOnceAndCountItWhenTheMigManagerFails() throws Exception {
        Booking booking = booking(
                "b-fail", "mig-c", Instant.now().plusSeconds(240), List.of(PlacedUnit.mig("flex-3", 0, "3g.71gb", 0)));
        fixture.publish(booking);
        await().atMost(Duration.ofSeconds(5)).until(() -> label("flex-3", "nvidia.com/mig.config") != null);

        migManagerApplied("flex-3", "failed", Map.of("nvidia.com/gpu", "1"));

        String topic = fixture.kafka.topic(Topics.NOTICES);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> notices(topic, "b-fail").size() == 1);
        assertThat(notices(topic, "b-fail").getFirst())
                .contains("\"state\":\"failed\"")
                .contains("\"node\":\"flex-3\"")
                .contains("\"tenant\":\"mig-c\"");
        assertThat(Metrics.sum(registry, "gpuaas_mig_layout_changes", "outcome", "failed"))
                .isEqualTo(1);
        assertThat(Metrics.sum(registry, "gpuaas_mig_layout_nodes_not_ready", "state", "failed"))
                .isEqualTo(1);
        Thread.sleep(2000); // several passes later: still one notice
        assertThat(notices(topic, "b-fail")).hasSize(1);
    }

    private List<String> notices(String topic, String key) {
        return fixture.records(topic).stream()
                .filter(r -> key.equals(r.key()))
                .map(r -> r.value().replace(" ", ""))
                .toList();
    }

    private static Booking booking(String id, String tenant, Instant start, List<PlacedUnit> units) {
        return new Booking(
                id,
                tenant,
                tenant,
                FLEX.id(),
                FLAVOR,
                FLEX.resourceFor(units.getFirst().profile()),
                units.size(),
                start,
                start.plusSeconds(600),
                null,
                BookingState.CONFIRMED,
                "alice",
                Instant.now(),
                Instant.now(),
                1,
                units);
    }

    private void node(String name, int gpus) {
        fixture.client
                .nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels(Labels.POOL, FLEX.id())
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                        .endStatus()
                        .build())
                .create();
    }

    /** What the MIG manager and the device plugin do: report the state and the resources the node now offers. */
    private void migManagerApplied(String name, String state, Map<String, String> allocatable) {
        Node node = node(name);
        node.getMetadata().getLabels().put("nvidia.com/mig.config.state", state);
        Map<String, Quantity> amounts = new java.util.HashMap<>();
        allocatable.forEach((k, v) -> amounts.put(k, new Quantity(v)));
        node.getStatus().setAllocatable(amounts);
        fixture.client.nodes().resource(node).update();
    }

    private Node node(String name) {
        return fixture.client.nodes().withName(name).get();
    }

    private String label(String node, String key) {
        Map<String, String> labels = node(node).getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    private String configYaml() {
        ConfigMap map = fixture.client
                .configMaps()
                .inNamespace("gpu-operator")
                .withName("gpuaas-mig-parted-config")
                .get();
        return map == null ? null : map.getData().get("config.yaml");
    }

    private ClusterQueue clusterQueue(String tenant) {
        return fixture.client
                .resources(ClusterQueue.class)
                .withName("gpuaas-" + tenant)
                .get();
    }

    private Cohort cohort() {
        return fixture.client.resources(Cohort.class).withName("gpuaas-pool").get();
    }

    private static long nominal(io.fabric8.kubernetes.api.model.HasMetadata object, FlavorResource cell) {
        return QuotaLifecycleIT.nominal(object, cell);
    }
}
