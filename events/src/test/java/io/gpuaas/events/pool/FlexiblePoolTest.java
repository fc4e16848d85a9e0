package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlexiblePoolTest {

    private static final String FLEX = """
            {"id": "h200-flex", "flavor": "h200-flex", "resource": "nvidia.com/gpu", "capacity": 4,
             "gpuModel": "NVIDIA H200", "kind": "flexible",
             "nodes": [{"name": "gpu-node-3", "gpus": 2}, {"name": "gpu-node-4", "gpus": 2}]}""";

    @Test
    void shouldReadAFlexiblePoolAndOfferEveryProfileOfItsModelButTheOnesAGpuHoldsOnce() throws Exception {
        Pool pool = read("[" + FLEX + "]").find("h200-flex").orElseThrow();

        assertThat(pool.flexible()).isTrue();
        assertThat(pool.nodes()).containsExactly(new PoolNode("gpu-node-3", 2), new PoolNode("gpu-node-4", 2));
        assertThat(pool.bookableProfiles())
                .contains("1g.18gb", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb")
                .noneMatch(p -> p.endsWith("+me"));
        assertThat(pool.resourceFor("3g.71gb")).isEqualTo("nvidia.com/mig-3g.71gb");
        assertThat(pool.resourceFor(null)).isEqualTo("nvidia.com/gpu");
        assertThat(pool.profileOf("nvidia.com/mig-1g.18gb")).isEqualTo("1g.18gb");
        assertThat(pool.profileOf("nvidia.com/gpu")).isNull();
        assertThat(pool.gpuFraction("3g.71gb")).isEqualTo(0.5);
        assertThat(pool.gpuFraction(null)).isEqualTo(1.0);
    }

    @Test
    void shouldKeepAStaticPoolAsItWas() {
        Pool pool = new Pool("h200-mig-2g.35gb", "f", "nvidia.com/mig-2g.35gb", 9, "NVIDIA H200", "2g.35gb");

        assertThat(pool.flexible()).isFalse();
        assertThat(pool.nodes()).isEmpty();
        assertThat(pool.bookableProfiles()).isEmpty();
        assertThat(pool.resourceFor("3g.71gb")).isEqualTo("nvidia.com/mig-2g.35gb");
        assertThat(pool.profileOf("nvidia.com/gpu")).isEqualTo("2g.35gb");
    }

    @Test
    void shouldRefuseAFlexiblePoolThatCannotBeLaidOut() {
        List<PoolNode> nodes = List.of(new PoolNode("n1", 2));
        assertThatThrownBy(() -> new Pool(
                        "x", "x", "nvidia.com/gpu", 2, "NVIDIA H200", "3g.71gb", null, null, "flexible", nodes))
                .hasMessageContaining("names none");
        assertThatThrownBy(() ->
                        new Pool("x", "x", "nvidia.com/gpu", 3, "NVIDIA H200", null, null, null, "flexible", nodes))
                .hasMessageContaining("capacity 3 is not the nodes' 2 GPUs");
        assertThatThrownBy(
                        () -> new Pool("x", "x", "nvidia.com/gpu", 2, "Tesla T4", null, null, null, "flexible", nodes))
                .hasMessageContaining("not in the geometry catalog");
        assertThatThrownBy(() ->
                        new Pool("x", "x", "nvidia.com/gpu", 0, "NVIDIA H200", null, null, null, "flexible", List.of()))
                .hasMessageContaining("lists its nodes");
        assertThatThrownBy(
                        () -> new Pool("x", "x", "nvidia.com/gpu", 2, "NVIDIA H200", null, null, null, "dynamic", null))
                .hasMessageContaining("static or flexible");
        assertThatThrownBy(() -> new Pool("x", "x", "nvidia.com/gpu", 2, "NVIDIA H200", null, null, null, null, nodes))
                .hasMessageContaining("only a flexible pool lists nodes");
        // deploy/kubernetes' static flavors select gpuaas.io/pool=static; a flexible pool's nodes carry its id there.
        assertThatThrownBy(() -> new Pool(
                        "static", "x", "nvidia.com/gpu", 2, "NVIDIA H200", null, null, null, "flexible", nodes))
                .hasMessageContaining("label value of static pools' nodes");
    }

    @Test
    void shouldRefuseANodeInTwoFlexiblePools() {
        String other = FLEX.replace("h200-flex", "h200-flex-b");
        assertThatThrownBy(() -> read("[" + FLEX + "," + other + "]"))
                .hasMessageContaining("node gpu-node-3 is in flexible pools h200-flex and h200-flex-b");
    }

    @Test
    void shouldFindTheFlexiblePoolOfANode() throws Exception {
        PoolCatalog catalog = read("[" + FLEX + "]");
        assertThat(catalog.flexibleFor("gpu-node-4")).map(Pool::id).contains("h200-flex");
        assertThat(catalog.flexibleFor("gpu-node-9")).isEmpty();
    }

    private static PoolCatalog read(String json) throws Exception {
        return PoolCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }
}
