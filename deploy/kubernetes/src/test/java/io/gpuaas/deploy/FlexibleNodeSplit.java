package io.gpuaas.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the manifests place on GPU nodes, and whether it keeps static and flexible nodes apart (deploy/README.md, "MIG
 * layouts of flexible pools"). A flexible pool's node carries its model's feature discovery labels as a static node
 * does (and MIG ones once laid out), so only the label {@value #POOL_LABEL} tells them apart: {@value #STATIC_NODES}
 * on the static pools' nodes, the pool id on a flexible pool's. A node has one value per label key, so a selector
 * keeps off every flexible node, whatever else that node carries, exactly when it requires that key with a value no
 * flexible pool has.
 *
 * <p>Placement comes from the ResourceFlavors (Kueue adds their nodeLabels to the nodeSelector of the pods it admits
 * under them) and from pod templates that request an {@code nvidia.com/*} resource outside Kueue (no queue-name
 * label, so Kueue adds nothing). Of a pod only {@code nodeSelector} is read: a GPU pod that picks nodes by affinity
 * alone is reported, not understood.
 *
 * @param flavors       the ResourceFlavors, by name
 * @param sharedGroups  the resource groups of the shared ClusterQueue
 * @param gpuPods       pod specs of GPU pods outside Kueue, by {@code Kind/name}
 * @param anyNodeFlavor the flavor of cpu and memory (quota-projector's {@code node-resources.flavor}): no node labels,
 *                      so it must never carry GPU quota
 * @param pools         the pools file
 */
record FlexibleNodeSplit(
        Map<String, Map<String, Object>> flavors,
        List<Map<String, Object>> sharedGroups,
        Map<String, Map<String, Object>> gpuPods,
        String anyNodeFlavor,
        List<Pool> pools) {

    static final String POOL_LABEL = "gpuaas.io/pool";
    static final String STATIC_NODES = "static";

    private static final Set<String> POD_TEMPLATE_KINDS = Set.of("Deployment", "StatefulSet", "DaemonSet", "Job");
    private static final String QUEUE_NAME_LABEL = "kueue.x-k8s.io/queue-name";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The split as {@code rendering} ships it; copies, so a test may change them. */
    static FlexibleNodeSplit of(Rendering rendering) {
        Map<String, Map<String, Object>> flavors = new LinkedHashMap<>();
        rendering.ofKind("ResourceFlavor").forEach(f -> flavors.put(Rendering.name(f), copy(f)));
        List<Map<String, Object>> groups = rendering.ofKind("ClusterQueue").stream()
                .filter(q -> "gpuaas-shared".equals(Rendering.name(q)))
                .flatMap(q -> Yaml.list(q, "spec", "resourceGroups").stream())
                .map(FlexibleNodeSplit::copy)
                .toList();
        Map<String, Map<String, Object>> pods = new LinkedHashMap<>();
        for (Map<String, Object> o : rendering.objects()) {
            Map<String, Object> template = Yaml.map(o, "spec", "template");
            if (POD_TEMPLATE_KINDS.contains(String.valueOf(o.get("kind")))
                    && requestsGpus(Yaml.map(template, "spec"))
                    && !Yaml.map(o, "metadata", "labels").containsKey(QUEUE_NAME_LABEL)
                    && !Yaml.map(template, "metadata", "labels").containsKey(QUEUE_NAME_LABEL)) {
                pods.put(o.get("kind") + "/" + Rendering.name(o), copy(Yaml.map(template, "spec")));
            }
        }
        String anyNode = ServiceConfig.of(rendering, "quota-projector")
                .get("gpuaas.quota.node-resources.flavor")
                .orElse("");
        return new FlexibleNodeSplit(flavors, groups, pods, anyNode, pools(rendering));
    }

    /** This split with {@code pool} in the pools file and {@code flavor} added or replacing the one of its name. */
    FlexibleNodeSplit with(Pool pool, Map<String, Object> flavor) {
        List<Pool> morePools = new ArrayList<>(pools);
        morePools.add(pool);
        return new FlexibleNodeSplit(withFlavor(flavor).flavors, sharedGroups, gpuPods, anyNodeFlavor, morePools);
    }

    /** This split with {@code flavor} added or replacing the one of its name. */
    FlexibleNodeSplit withFlavor(Map<String, Object> flavor) {
        Map<String, Map<String, Object>> more = new LinkedHashMap<>(flavors);
        more.put(Rendering.name(flavor), flavor);
        return new FlexibleNodeSplit(more, sharedGroups, gpuPods, anyNodeFlavor, pools);
    }

    /** This split with the pod spec {@code pod} as the GPU pod {@code kindAndName}. */
    FlexibleNodeSplit withGpuPod(String kindAndName, Map<String, Object> pod) {
        Map<String, Map<String, Object>> more = new LinkedHashMap<>(gpuPods);
        more.put(kindAndName, pod);
        return new FlexibleNodeSplit(flavors, sharedGroups, more, anyNodeFlavor, pools);
    }

    /** Every way a static pool's pods could land on a flexible pool's node, or a flexible pool's elsewhere. */
    List<String> violations() {
        List<String> found = new ArrayList<>();
        Map<String, List<String>> flexibleByFlavor = pools.stream()
                .filter(Pool::flexible)
                .collect(Collectors.groupingBy(Pool::flavor, Collectors.mapping(Pool::id, Collectors.toList())));
        Set<String> flexibleIds = new TreeSet<>();
        flexibleByFlavor.values().forEach(flexibleIds::addAll);
        // No flexible pool is named STATIC_NODES: the pool catalog refuses one when it loads (events' FlexibleCheck).
        flavors.forEach((name, flavor) -> {
            Map<String, Object> labels = Yaml.map(flavor, "spec", "nodeLabels");
            List<String> flexiblePools = flexibleByFlavor.getOrDefault(name, List.of());
            if (name.equals(anyNodeFlavor)) {
                anyNodeGpuResources()
                        .forEach(r -> found.add("ResourceFlavor " + name + " selects every node but carries " + r
                                + " in gpuaas-shared: a flexible node's GPUs could be admitted under it"));
            } else if (!flexiblePools.isEmpty()) {
                // One flavor per flexible pool: a flavor selects one value of the label, so one pool's nodes.
                flexiblePools.stream()
                        .filter(pool -> !pool.equals(labels.get(POOL_LABEL)))
                        .forEach(pool -> found.add("ResourceFlavor " + name + " of flexible pool " + pool
                                + " must select " + POOL_LABEL + "=" + pool + ", selects " + labels));
            } else {
                staticSelectorProblem(labels, flexibleIds)
                        .ifPresent(p -> found.add("static ResourceFlavor " + name + " " + p));
            }
        });
        gpuPods.forEach((pod, spec) -> staticSelectorProblem(Yaml.map(spec, "nodeSelector"), flexibleIds)
                .ifPresent(p -> found.add(pod + " requests GPUs outside Kueue and " + p)));
        return found;
    }

    /** Why a static flavor's or GPU pod's selector may pick a flexible node, or pick no node at all. */
    private static Optional<String> staticSelectorProblem(Map<String, Object> selector, Set<String> flexible) {
        Object value = selector.get(POOL_LABEL);
        if (value == null) {
            return Optional.of("may land on any flexible pool's node: it selects " + selector
                    + ", which a flexible node of that model carries too; add " + POOL_LABEL + ": " + STATIC_NODES);
        }
        if (flexible.contains(String.valueOf(value))) {
            return Optional.of("selects flexible pool " + value + "'s nodes (" + POOL_LABEL + "=" + value + ")");
        }
        if (!STATIC_NODES.equals(String.valueOf(value))) {
            return Optional.of("selects " + POOL_LABEL + "=" + value + ", which no node carries (static"
                    + " nodes carry " + STATIC_NODES + ")");
        }
        return Optional.empty();
    }

    /** The resources other than cpu and memory that the shared queue covers on the cpu/memory flavor. */
    private List<String> anyNodeGpuResources() {
        return sharedGroups.stream()
                .filter(g -> Yaml.list(g, "flavors").stream().anyMatch(f -> anyNodeFlavor.equals(f.get("name"))))
                .flatMap(g -> g.get("coveredResources") instanceof List<?> l ? l.stream() : Stream.empty())
                .map(String::valueOf)
                .filter(r -> !r.equals("cpu") && !r.equals("memory"))
                .toList();
    }

    private static boolean requestsGpus(Map<String, Object> podSpec) {
        return Yaml.list(podSpec, "containers").stream()
                .flatMap(c -> Stream.of(Yaml.map(c, "resources", "requests"), Yaml.map(c, "resources", "limits")))
                .anyMatch(r -> r.keySet().stream().anyMatch(k -> k.startsWith("nvidia.com/")));
    }

    private static List<Pool> pools(Rendering rendering) {
        String json = ServiceConfig.file(rendering, "gpuaas-pools", "pools.json");
        try {
            return PoolCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)))
                    .pools();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> object) {
        try {
            return JSON.readValue(JSON.writeValueAsBytes(object), Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
