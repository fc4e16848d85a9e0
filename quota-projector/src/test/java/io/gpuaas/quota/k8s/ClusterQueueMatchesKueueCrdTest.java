package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.QuotaPlan;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * A tenant ClusterQueue over the shipped static pools and a flexible pool, checked against the upstream Kueue CRD
 * ({@code ../shared/crds} beside the repository, or {@code -Dgpuaas.crds=<dir>}; skipped when absent): every field is
 * declared, the list limits hold, and the CRD's rule that each flavor lists as many resources as its group covers —
 * with Kueue's webhook rules that they are the same resources in the same order and that a resource is covered by
 * exactly one group.
 */
class ClusterQueueMatchesKueueCrdTest {

    @Test
    void shouldRenderAQueueTheKueueCrdAcceptsWhenStaticAndFlexibleFlavorsShareResources() throws IOException {
        Path crd = crds().resolve("kueue_clusterqueues.yaml");
        assumeTrue(Files.exists(crd), "no Kueue CRDs at " + crd);
        List<Pool> pools = new ArrayList<>(PoolCatalog.load(Optional.empty()).pools());
        pools.add(Pool.flexible("h200-flex", "h200-flex", "NVIDIA H200", null, List.of(new PoolNode("n1", 8))));
        DesiredQuota quota = QuotaPlan.at(Instant.EPOCH, List.of(), new PoolCatalog(pools), Map.of());
        ClusterQueue queue = new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false))
                .clusterQueue("team-a", quota.cells(), KueueManifests.RUNNING);
        Map<String, Object> spec = Serialization.unmarshal(Serialization.asJson(queue.getSpec()), Map.class);

        Map<String, Object> schema = specSchema(crd);
        List<String> problems = new ArrayList<>();
        check("spec", spec, schema, problems);
        assertThat(problems).isEmpty();

        Set<String> covered = new HashSet<>();
        for (var group : queue.getSpec().getResourceGroups()) {
            group.getCoveredResources().forEach(r -> assertThat(covered.add(r))
                    .as("%s in one group only", r)
                    .isTrue());
            group.getFlavors().forEach(f -> assertThat(f.getResources())
                    .extracting(r -> r.getName())
                    .as("flavor %s", f.getName())
                    .containsExactlyElementsOf(group.getCoveredResources()));
        }
        assertThat(covered).contains("nvidia.com/gpu", "nvidia.com/mig-3g.71gb", "cpu", "memory");
    }

    @SuppressWarnings("unchecked")
    private static void check(String path, Object value, Map<String, Object> schema, List<String> problems) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> properties = (Map<String, Object>) schema.get("properties");
            if (properties == null) {
                return; // x-kubernetes-int-or-string, preserve-unknown-fields
            }
            map.forEach((k, v) -> {
                Object sub = properties.get(k);
                if (sub == null) {
                    problems.add(path + "." + k + " is not declared");
                } else {
                    check(path + "." + k, v, (Map<String, Object>) sub, problems);
                }
            });
        } else if (value instanceof List<?> list) {
            Object max = schema.get("maxItems");
            if (max instanceof Number n && list.size() > n.intValue()) {
                problems.add(path + " has " + list.size() + " items, at most " + n);
            }
            Map<String, Object> items = (Map<String, Object>) schema.get("items");
            for (int i = 0; i < list.size(); i++) {
                check(path + "[" + i + "]", list.get(i), items, problems);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> specSchema(Path crd) throws IOException {
        try (InputStream in = Files.newInputStream(crd)) {
            Map<String, Object> doc = new Yaml().load(in);
            for (Map<String, Object> version :
                    (List<Map<String, Object>>) ((Map<String, Object>) doc.get("spec")).get("versions")) {
                if ("v1beta2".equals(version.get("name"))) {
                    Map<String, Object> root =
                            (Map<String, Object>) ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
                    return (Map<String, Object>) ((Map<String, Object>) root.get("properties")).get("spec");
                }
            }
        }
        throw new IllegalStateException("the CRD serves no v1beta2");
    }

    private static Path crds() {
        String configured = System.getProperty("gpuaas.crds");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of("")
                        .toAbsolutePath()
                        .getParent()
                        .resolve("../shared/crds")
                        .normalize();
    }
}
