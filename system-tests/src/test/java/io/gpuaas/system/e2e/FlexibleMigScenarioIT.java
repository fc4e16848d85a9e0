package io.gpuaas.system.e2e;

import static io.gpuaas.system.e2e.ClusterView.TENANT_QUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.events.Json;
import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.system.e2e.JsonHttp.Answer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #27's flexible MIG pool end to end on the local stack's parts (booking-service and quota-projector in their
 * own JVMs, the MIG manager and Kueue stand-ins): team-a books a {@code 3g.71gb} and a {@code 1g.18gb} of pool
 * {@code h200-flex} starting shortly → both are placed on one GPU → quota-projector lays the node out ahead of the
 * window (mig-parted ConfigMap, {@code nvidia.com/mig.config} label) → the MIG manager stand-in applies it (state
 * {@code success}, allocatable) → at the start the tenant ClusterQueue gets per-profile quota under flavor
 * {@code h200-flex} → a RayCluster worker asking for a {@code 3g.71gb} is admitted and bound to the flexible node.
 *
 * <p>The stack runs two static GPUs ({@code --gpus 2}: one whole, one of seven {@code 1g.18gb}), so no static node
 * offers a {@code 3g.71gb} and the device allocator (static nodes first) can only bind the worker to the flexible one.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(StopAfterFirstFailure.class)
class FlexibleMigScenarioIT {

    private static final String POOL = "h200-flex";
    private static final String THREE = "3g.71gb";
    private static final String ONE = "1g.18gb";
    private static final String THREE_RESOURCE = "nvidia.com/mig-" + THREE;
    private static final String ONE_RESOURCE = "nvidia.com/mig-" + ONE;
    private static final String CONFIG_LABEL = "nvidia.com/mig.config";
    private static final String STATE_LABEL = "nvidia.com/mig.config.state";
    private static final String LAYOUT_ANNOTATION = "gpuaas.io/mig-layout";
    private static final String RAY = "e2e-flex";
    /** How far ahead the bookings start: room for the layout to be asked for and applied before the window. */
    private static final Duration BOOKING_LEAD = Duration.ofSeconds(25);
    /** quota-projector's lead time ({@code gpuaas.quota.mig.lead-time}): the layout is due as soon as booked. */
    private static final Duration MIG_LEAD = BOOKING_LEAD.plusSeconds(10);

    private static final GpuGeometry H200 =
            GpuGeometryCatalog.shipped().forModel("NVIDIA H200").orElseThrow();
    private static final JsonHttp HTTP = new JsonHttp();
    private static final Instant STARTED = Instant.now();
    private static final Map<String, Duration> figures = new LinkedHashMap<>();

    private static E2eStack stack;
    private static ClusterView cluster;
    private static Instant start;
    private static Instant booked;
    private static String node;
    private static int gpu;
    private static String config;
    private static List<MigPlacement> bookedOnGpu;

    @BeforeAll
    static void start() throws Exception {
        stack = E2eStack.start(List.of(
                "--gpus",
                "2",
                "--flexible-gpus",
                "8",
                "--mig-delay",
                "2",
                "--only",
                "booking-service,quota-projector",
                "--service-property",
                "quota-projector:gpuaas.quota.mig.lead-time=" + MIG_LEAD.toSeconds() + "s",
                "--service-property",
                "quota-projector:gpuaas.quota.mig.poll=2s"));
        figures.put("stack and services up", Duration.between(STARTED, Instant.now()));
        cluster = new ClusterView(stack.kube());
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            if (StopAfterFirstFailure.failedStep().isPresent()) {
                System.out.println("service logs at the failure:" + stack.logTails());
            }
            stack.close();
        }
        figures.put("whole scenario", Duration.between(STARTED, Instant.now()));
        figures.forEach((name, d) -> System.out.printf("e2e-flex: %-40s %6.1f s%n", name, d.toMillis() / 1000.0));
    }

    @Test
    @Order(1)
    void shouldPlaceBothProfilesOnOneGpuWhenTeamABooksThemOnTheFlexiblePool() {
        start = Instant.now().plus(BOOKING_LEAD).truncatedTo(ChronoUnit.SECONDS);
        Instant end = start.plus(Duration.ofMinutes(10));

        JsonNode three = book(THREE, end);
        booked = Instant.now();
        JsonNode one = book(ONE, end);

        assertThat(three.path("resource").asText()).isEqualTo(THREE_RESOURCE);
        assertThat(one.path("resource").asText()).isEqualTo(ONE_RESOURCE);
        JsonNode threeUnit = onlyUnit(three, THREE);
        JsonNode oneUnit = onlyUnit(one, ONE);
        node = threeUnit.path("node").asText();
        gpu = threeUnit.path("gpu").asInt();
        assertThat(node).isEqualTo("gpu-node-3");
        assertThat(oneUnit.path("node").asText()).as("same node").isEqualTo(node);
        assertThat(oneUnit.path("gpu").asInt())
                .as("the 1g.18gb packed onto the GPU laid out for the 3g.71gb")
                .isEqualTo(gpu);
        List<MigPlacement> onTheGpu = List.of(
                MigPlacement.of(THREE, threeUnit.path("start").asInt()),
                MigPlacement.of(ONE, oneUnit.path("start").asInt()));
        assertThat(H200.violations(onTheGpu)).as("start slices %s", onTheGpu).isEmpty();
        bookedOnGpu = onTheGpu;
    }

    @Test
    @Order(2)
    void shouldWriteTheLayoutAndLabelTheNodeBeforeTheWindowStarts() throws Exception {
        // The first booking alone may be laid out first: wait for the config that holds both.
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    String named = labels(flexibleNode()).get(CONFIG_LABEL);
                    assertThat(named)
                            .as("%s of %s", CONFIG_LABEL, node)
                            .isNotNull()
                            .isNotEqualTo("all-disabled");
                    JsonNode configs = migConfigs();
                    assertThat(configs.has(named))
                            .as("the ConfigMap holds config %s: %s", named, configs)
                            .isTrue();
                    JsonNode ours = null;
                    for (JsonNode entry : configs.path(named)) {
                        for (JsonNode device : entry.path("devices")) {
                            if (device.asInt(-1) == gpu) {
                                ours = entry;
                            }
                        }
                    }
                    assertThat(ours)
                            .as("an entry of %s selects GPU %d: %s", named, gpu, configs.path(named))
                            .isNotNull();
                    assertThat(ours.path("mig-enabled").asBoolean()).isTrue();
                    assertThat(ours.path("mig-devices").path(THREE).asInt())
                            .as("%s of %s", THREE, ours)
                            .isGreaterThanOrEqualTo(1);
                    assertThat(ours.path("mig-devices").path(ONE).asInt())
                            .as("%s of %s", ONE, ours)
                            .isGreaterThanOrEqualTo(1);
                    config = named;
                });
        Instant requested = Instant.now();
        figures.put("booking -> layout requested", Duration.between(booked, requested));
        assertThat(requested).as("layout requested before the window %s", start).isBefore(start);

        // The annotation places the booked instances where the bookings' placements say.
        String annotation = flexibleNode().getMetadata().getAnnotations().get(LAYOUT_ANNOTATION);
        assertThat(annotation).as(LAYOUT_ANNOTATION).isNotNull();
        // quota-projector's shape (LayoutAnnotation): [{"gpu": 0, "migEnabled": true, "instances": [...]}, ...]
        JsonNode layout = null;
        for (JsonNode g : readJson(annotation)) {
            if (g.path("gpu").asInt(-1) == gpu) {
                layout = g;
            }
        }
        assertThat(layout).as("GPU %d in %s", gpu, annotation).isNotNull();
        assertThat(layout.path("migEnabled").asBoolean())
                .as("GPU %d in %s", gpu, annotation)
                .isTrue();
        List<MigPlacement> annotated = new ArrayList<>();
        layout.path("instances")
                .forEach(i -> annotated.add(MigPlacement.of(
                        i.path("profile").asText(), i.path("start").asInt())));
        assertThat(annotated).as("the annotated layout of GPU %d", gpu).containsAll(bookedOnGpu);
    }

    @Test
    @Order(3)
    void shouldApplyTheLayoutAndAdvertiseTheInstancesWhenTheMigManagerSucceeds() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    Node flexible = flexibleNode();
                    assertThat(labels(flexible).get(CONFIG_LABEL)).isEqualTo(config);
                    // A state still at success from the 3g.71gb-only layout shows no 1g.18gb: the allocatable
                    // below is only there once the layout of both bookings is applied.
                    assertThat(labels(flexible).get(STATE_LABEL)).isEqualTo("success");
                    assertThat(allocatable(flexible, THREE_RESOURCE)).isGreaterThanOrEqualTo(1);
                    assertThat(allocatable(flexible, ONE_RESOURCE)).isGreaterThanOrEqualTo(1);
                });
        Instant applied = Instant.now();
        figures.put("booking -> layout success", Duration.between(booked, applied));
        System.out.printf(
                "e2e-flex: layout %s applied on %s %s the window's start %s%n",
                config, node, applied.isBefore(start) ? "before" : "after", start);
    }

    @Test
    @Order(4)
    void shouldGiveTheTenantQueuePerProfileQuotaUnderTheFlexibleFlavorAtTheBoundary() throws Exception {
        cluster.apply("raycluster-flex.yaml");
        await().atMost(BOOKING_LEAD.plusSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Optional<JsonNode> queue = cluster.clusterQueue(TENANT_QUEUE);
                    boolean quota = queue.isPresent()
                            && ClusterView.nominalQuota(queue.get(), POOL, THREE_RESOURCE)
                                    .equals(Optional.of("1"))
                            && ClusterView.nominalQuota(queue.get(), POOL, ONE_RESOURCE)
                                    .equals(Optional.of("1"));
                    assertThat(quota && Instant.now().isBefore(start.minusMillis(500)))
                            .as("quota under %s before the window's start %s", POOL, start)
                            .isFalse();
                    return quota;
                });
        figures.put("boundary -> per-profile quota", Duration.between(start, Instant.now()));
    }

    @Test
    @Order(5)
    void shouldAdmitAThreeGWorkloadAndBindItsPodToTheFlexibleNode() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    JsonNode workload =
                            cluster.workloadOf(RAY).orElseThrow(() -> new AssertionError("no Workload yet"));
                    assertThat(ClusterView.condition(workload, "Admitted"))
                            .as("Admitted: %s", workload.path("status"))
                            .isTrue();
                    assertThat(workload.at("/status/admission/clusterQueue").asText())
                            .isEqualTo(TENANT_QUEUE);
                    assertThat(flavorsOf(workload)).containsEntry(THREE_RESOURCE, POOL);
                    List<Pod> workers = cluster.runningWorkers(RAY);
                    assertThat(workers).hasSize(1);
                    assertThat(workers.getFirst().getSpec().getNodeName())
                            .as("the worker's node")
                            .isEqualTo(node);
                });
        figures.put("boundary -> 3g.71gb worker running", Duration.between(start, Instant.now()));
    }

    private static JsonNode book(String profile, Instant end) {
        Map<String, Object> body = new HashMap<>(Map.of(
                "pool",
                POOL,
                "profile",
                profile,
                "quantity",
                1,
                "start",
                start.toString(),
                "end",
                end.toString(),
                "namespace",
                "team-a",
                "purpose",
                "e2e flexible pool"));
        Answer answer = HTTP.post(stack.url("booking-service") + "/api/v1/bookings", stack.token("team-a"), body);
        assertThat(answer.status()).as(answer.raw()).isEqualTo(201);
        assertThat(answer.body().path("state").asText()).isEqualTo("CONFIRMED");
        return answer.body();
    }

    private static JsonNode onlyUnit(JsonNode booking, String profile) {
        JsonNode placement = booking.path("placement");
        assertThat(placement.isArray() && placement.size() == 1)
                .as("one placed unit: %s", booking)
                .isTrue();
        JsonNode unit = placement.get(0);
        assertThat(unit.path("profile").asText()).isEqualTo(profile);
        assertThat(unit.path("start").isInt()).as("start slice of %s", unit).isTrue();
        return unit;
    }

    private static Node flexibleNode() {
        return stack.kube().nodes().withName(node).get();
    }

    private static Map<String, String> labels(Node n) {
        Map<String, String> labels = n.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static int allocatable(Node n, String resource) {
        Map<String, Quantity> allocatable =
                n.getStatus() == null ? null : n.getStatus().getAllocatable();
        Quantity q = allocatable == null ? null : allocatable.get(resource);
        return q == null ? 0 : q.getNumericalAmount().intValue();
    }

    /** {@code mig-configs} of the mig-parted file quota-projector keeps in gpu-operator. */
    private static JsonNode migConfigs() throws Exception {
        ConfigMap map = stack.kube()
                .configMaps()
                .inNamespace("gpu-operator")
                .withName("gpuaas-mig-parted-config")
                .get();
        assertThat(map).as("ConfigMap gpu-operator/gpuaas-mig-parted-config").isNotNull();
        String yaml = map.getData() == null ? null : map.getData().get("config.yaml");
        assertThat(yaml).as("config.yaml").isNotNull();
        JsonNode file = new YAMLMapper().readTree(yaml);
        assertThat(file.path("version").asText()).isEqualTo("v1");
        return file.path("mig-configs");
    }

    private static JsonNode readJson(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** Resource → flavor over the admission's pod set assignments. */
    private static Map<String, String> flavorsOf(JsonNode workload) {
        Map<String, String> flavors = new HashMap<>();
        List<JsonNode> assignments = new ArrayList<>();
        workload.at("/status/admission/podSetAssignments").forEach(assignments::add);
        for (JsonNode assignment : assignments) {
            assignment
                    .path("flavors")
                    .fields()
                    .forEachRemaining(e -> flavors.put(e.getKey(), e.getValue().asText()));
        }
        return flavors;
    }
}
