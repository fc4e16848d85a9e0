package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * A static pool's Workload never lands on a GPU gpuaas re-lays out, and a flexible pool's stays on its own nodes
 * ({@link FlexibleNodeSplit}: static flavors and GPU pods outside Kueue require {@code gpuaas.io/pool=static}, a
 * flexible pool's flavor {@code gpuaas.io/pool=<pool id>}).
 */
class FlexibleNodeSplitTest {

    static final List<String> TARGETS = Rendering.TARGETS;

    /** A flexible pool as deploy/README.md adds one: two 8-GPU H200 nodes. */
    private static final Pool H200_FLEX = Pool.flexible(
            "h200-flex",
            "h200-flex",
            "NVIDIA H200",
            null,
            List.of(new PoolNode("gpu-flex-0", 8), new PoolNode("gpu-flex-1", 8)));

    /** Its ResourceFlavor, as deploy/README.md shows it. */
    private static final Map<String, Object> H200_FLEX_FLAVOR = yaml("""
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: h200-flex}
            spec:
              nodeLabels: {gpuaas.io/pool: h200-flex}
              tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
            """);

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldKeepStaticFlavorsAndGpuPodsOffFlexibleNodesWhenRendered(String target) {
        FlexibleNodeSplit shipped = FlexibleNodeSplit.of(Rendering.of(target));

        assertThat(shipped.flavors()).as("ResourceFlavors of %s", target).containsKeys("h200", "h200-mig-1g.18gb");
        assertThat(shipped.gpuPods())
                .as("GPU pods outside Kueue in %s", target)
                .containsKey("Deployment/gpu-capacity-placeholder");
        assertThat(shipped.violations()).as("%s", target).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldKeepStaticFlavorsOffAFlexiblePoolsNodesWhenAnOverlayAddsOne(String target) {
        FlexibleNodeSplit withFlexiblePool =
                FlexibleNodeSplit.of(Rendering.of(target)).with(H200_FLEX, H200_FLEX_FLAVOR);

        assertThat(withFlexiblePool.violations())
                .as("%s with pool h200-flex", target)
                .isEmpty();
    }

    @Test
    void shouldReportAStaticFlavorWhenItSelectsOnlyFeatureDiscoveryLabels() {
        // The h200 flavor as shipped before flexible pools: an idle flexible H200 node carries this label too.
        FlexibleNodeSplit split = FlexibleNodeSplit.of(Rendering.of("base"))
                .with(H200_FLEX, H200_FLEX_FLAVOR)
                .withFlavor(yaml("""
                kind: ResourceFlavor
                metadata: {name: h200}
                spec:
                  nodeLabels: {nvidia.com/gpu.product: NVIDIA-H200}
                """));

        assertThat(split.violations())
                .singleElement()
                .asString()
                .startsWith("static ResourceFlavor h200 may land on any flexible pool's node")
                .contains("add gpuaas.io/pool: static");
    }

    @Test
    void shouldReportAStaticFlavorWhenItSelectsAFlexiblePoolsNodesOrNoNodes() {
        FlexibleNodeSplit split = FlexibleNodeSplit.of(Rendering.of("base"))
                .with(H200_FLEX, H200_FLEX_FLAVOR)
                .withFlavor(staticFlavor("h200", "h200-flex"))
                .withFlavor(staticFlavor("h200-mig-1g.18gb", "statics"));

        assertThat(split.violations())
                .containsExactlyInAnyOrder(
                        "static ResourceFlavor h200 selects flexible pool h200-flex's nodes (gpuaas.io/pool=h200-flex)",
                        "static ResourceFlavor h200-mig-1g.18gb selects gpuaas.io/pool=statics, which no node carries"
                                + " (static nodes carry static)");
    }

    @Test
    void shouldReportAFlexiblePoolsFlavorWhenItSelectsMoreThanThePoolsNodes() {
        FlexibleNodeSplit split = FlexibleNodeSplit.of(Rendering.of("base")).with(H200_FLEX, yaml("""
                kind: ResourceFlavor
                metadata: {name: h200-flex}
                spec:
                  nodeLabels: {nvidia.com/gpu.product: NVIDIA-H200}
                """));

        assertThat(split.violations())
                .singleElement()
                .asString()
                .isEqualTo("ResourceFlavor h200-flex of flexible pool h200-flex must select gpuaas.io/pool=h200-flex,"
                        + " selects {nvidia.com/gpu.product=NVIDIA-H200}");
    }

    @Test
    void shouldFindThePoolCatalogRefusingAFlexiblePoolNamedAsTheStaticNodesLabelValue() {
        // Its nodes' gpuaas.io/pool would be the static nodes' one, so static flavors would select them.
        assertThatThrownBy(() -> Pool.flexible(
                        FlexibleNodeSplit.STATIC_NODES,
                        "static-flex",
                        "NVIDIA H200",
                        null,
                        List.of(new PoolNode("gpu-flex-2", 8))))
                .hasMessageContaining("label value of static pools' nodes");
    }

    @Test
    void shouldReportAGpuPodOutsideKueueWhenItSelectsOnlyFeatureDiscoveryLabels() {
        // The GPU capacity placeholder as shipped before: it could hold a flexible node's GPUs and block its layout.
        FlexibleNodeSplit split =
                FlexibleNodeSplit.of(Rendering.of("base")).withGpuPod("Deployment/gpu-capacity-placeholder", yaml("""
                nodeSelector: {nvidia.com/gpu.product: NVIDIA-H200}
                containers: [{name: pause, resources: {requests: {nvidia.com/gpu: "8"}}}]
                """));

        assertThat(split.violations())
                .singleElement()
                .asString()
                .startsWith(
                        "Deployment/gpu-capacity-placeholder requests GPUs outside Kueue and may land on any flexible pool's node");
    }

    @Test
    void shouldReportTheCpuAndMemoryFlavorWhenTheSharedQueueGivesItGpuQuota() {
        FlexibleNodeSplit shipped = FlexibleNodeSplit.of(Rendering.of("base"));
        List<Map<String, Object>> groups = new ArrayList<>(shipped.sharedGroups());
        groups.add(yaml("""
                coveredResources: [nvidia.com/gpu]
                flavors: [{name: gpuaas-any-node, resources: [{name: nvidia.com/gpu, nominalQuota: "0"}]}]
                """));
        FlexibleNodeSplit split = new FlexibleNodeSplit(
                shipped.flavors(), groups, shipped.gpuPods(), shipped.anyNodeFlavor(), shipped.pools());

        assertThat(split.violations())
                .singleElement()
                .asString()
                .startsWith("ResourceFlavor gpuaas-any-node selects every node but carries nvidia.com/gpu");
    }

    /** The shipped flavors are ones the upstream Kueue CRD accepts (nodeLabels at most 8, and so on). */
    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldValidateEveryResourceFlavorAgainstTheUpstreamKueueCrdWhenRendered(String target) {
        Path dir = CrdSchemas.directory().orElse(null);
        Assumptions.assumeTrue(dir != null, "upstream CRDs not found (../shared/crds or -Dgpuaas.crds)");
        CrdSchemas kueue = CrdSchemas.load(dir, "kueue.x-k8s.io");
        List<String> problems = new ArrayList<>();
        for (Map<String, Object> flavor : Rendering.of(target).ofKind("ResourceFlavor")) {
            kueue.problems(flavor).forEach(p -> problems.add(Rendering.name(flavor) + ": " + p));
        }
        assertThat(problems).as("%s flavors Kueue would refuse", target).isEmpty();
    }

    @Test
    void shouldRefuseAFlavorWhenItSelectsMoreNodeLabelsThanKueueAllows() {
        Path dir = CrdSchemas.directory().orElse(null);
        Assumptions.assumeTrue(dir != null, "upstream CRDs not found (../shared/crds or -Dgpuaas.crds)");
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            labels.append("    example.com/label-").append(i).append(": x\n");
        }
        Map<String, Object> flavor = yaml("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
                + "metadata: {name: too-many}\nspec:\n  nodeLabels:\n" + labels);

        assertThat(CrdSchemas.load(dir, "kueue.x-k8s.io").problems(flavor))
                .singleElement()
                .asString()
                .contains("nodeLabels");
    }

    private static Map<String, Object> staticFlavor(String name, String poolLabel) {
        return yaml("kind: ResourceFlavor\nmetadata: {name: " + name + "}\nspec:\n  nodeLabels:\n"
                + "    nvidia.com/gpu.product: NVIDIA-H200\n    gpuaas.io/pool: " + poolLabel + "\n");
    }

    private static Map<String, Object> flexibleFlavor(String name, String pool) {
        return yaml("kind: ResourceFlavor\nmetadata: {name: " + name + "}\nspec:\n  nodeLabels: {gpuaas.io/pool: "
                + pool + "}\n");
    }

    private static Map<String, Object> yaml(String document) {
        try {
            return Rendering.parse(document).getFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
