package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Kueue admits a Workload only if its ClusterQueue covers every resource its pods request (deploy/README.md, "Kueue"):
 * the shipped queues and the ones quota-projector writes must cover cpu and memory as well as the GPUs.
 */
class KueueCoverageTest {

    static final List<String> TARGETS = Rendering.TARGETS;

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldCoverCpuAndMemoryInTheSharedQueueOnTheProjectorsFlavorWithoutBorrowing(String target) {
        Rendering rendering = Rendering.of(target);
        String flavor = nodeFlavor(rendering);
        assertThat(flavor).as("gpuaas.quota.node-resources.flavor").isNotBlank();
        Map<String, Object> resourceFlavor = rendering.ofKind("ResourceFlavor").stream()
                .filter(f -> flavor.equals(Rendering.name(f)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ResourceFlavor " + flavor));
        assertThat(Yaml.at(resourceFlavor, "spec", "nodeLabels"))
                .as("the cpu/memory flavor must not restrict placement")
                .isNull();
        Map<String, Object> shared = sharedQueue(rendering);
        Map<String, Object> group = Yaml.list(shared, "spec", "resourceGroups").stream()
                .filter(g -> String.valueOf(Yaml.at(g, "coveredResources")).contains("cpu"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("gpuaas-shared does not cover cpu"));
        assertThat(String.valueOf(Yaml.at(group, "coveredResources"))).isEqualTo("[cpu, memory]");
        assertThat(Yaml.list(group, "flavors")).singleElement().satisfies(f -> {
            assertThat(f.get("name")).isEqualTo(flavor);
            assertThat(Yaml.list(f, "resources"))
                    .extracting(r -> r.get("name"), r -> String.valueOf(r.get("borrowingLimit")))
                    .containsExactly(tuple("cpu", "0"), tuple("memory", "0"));
        });
    }

    /** The dev overlay ships the KServe example, queued on the tenant's gpuaas LocalQueue. */
    @Test
    void shouldCoverEveryResourceTheQueuedExamplePodsRequest(@TempDir Path dir) throws IOException {
        Rendering rendering = Rendering.of("overlays/dev");
        Path pools = Files.writeString(
                dir.resolve("pools.json"), ServiceConfig.file(rendering, "gpuaas-pools", "pools.json"));
        Set<String> covered = new TreeSet<>(Set.of("cpu", "memory"));
        PoolCatalog.load(Optional.of(pools)).pools().stream()
                .map(Pool::resource)
                .forEach(covered::add);
        List<String> requested = new ArrayList<>();
        for (Map<String, Object> service : rendering.ofKind("InferenceService")) {
            Object resources = Yaml.at(service, "spec", "predictor", "model", "resources", "requests");
            if (resources instanceof Map<?, ?> requests) {
                requests.keySet().forEach(r -> requested.add(String.valueOf(r)));
            }
        }
        assertThat(requested).contains("cpu", "memory");
        assertThat(covered).containsAll(requested);
    }

    private static String nodeFlavor(Rendering rendering) {
        return ServiceConfig.of(rendering, "quota-projector")
                .get("gpuaas.quota.node-resources.flavor")
                .orElse("");
    }

    private static Map<String, Object> sharedQueue(Rendering rendering) {
        return rendering.ofKind("ClusterQueue").stream()
                .filter(q -> "gpuaas-shared".equals(Rendering.name(q)))
                .findFirst()
                .orElseThrow();
    }
}
