package io.gpuaas.local.mig;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.local.fleet.GpuNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Node as the MIG manager, GPU feature discovery and the device plugin leave it: the state label, and after a
 * config is applied the {@code nvidia.com/mig-<profile>.count} labels and the {@code nvidia.com/*} capacity and
 * allocatable of the node's new devices. A resource the node advertised before and no longer has stays at 0, as the
 * kubelet keeps an extended resource once registered.
 */
final class NodeStatusWriter {

    private static final String NVIDIA = "nvidia.com/";
    private static final String MIG_RESOURCE = "nvidia.com/mig-";
    private static final String COUNT_SUFFIX = ".count";

    private NodeStatusWriter() {}

    /** {@code node} with {@value MigManagerStandIn#STATE_LABEL} set to {@code state}. */
    static Node state(Node node, String state) {
        return new NodeBuilder(node)
                .editMetadata()
                .addToLabels(MigManagerStandIn.STATE_LABEL, state)
                .endMetadata()
                .build();
    }

    /** {@code node} once {@code after} replaced {@code before}: state success, labels and resources of its devices. */
    static Node applied(Node node, GpuNode before, GpuNode after) {
        Map<String, String> labels = new LinkedHashMap<>(node.getMetadata().getLabels());
        labels.keySet().removeIf(k -> k.startsWith(MIG_RESOURCE) && k.endsWith(COUNT_SUFFIX));
        after.capacity().forEach((resource, count) -> {
            if (resource.startsWith(MIG_RESOURCE)) {
                labels.put(resource + COUNT_SUFFIX, Integer.toString(count));
            }
        });
        labels.put(MigManagerStandIn.STATE_LABEL, MigManagerStandIn.SUCCESS);
        Set<String> resources = new TreeSet<>(before.capacity().keySet());
        resources.addAll(after.capacity().keySet());
        Map<String, Quantity> capacity = resources(node.getStatus().getCapacity(), resources, after);
        Map<String, Quantity> allocatable = resources(node.getStatus().getAllocatable(), resources, after);
        return new NodeBuilder(node)
                .editMetadata()
                .withLabels(labels)
                .endMetadata()
                .editStatus()
                .withCapacity(capacity)
                .withAllocatable(allocatable)
                .endStatus()
                .build();
    }

    private static Map<String, Quantity> resources(Map<String, Quantity> current, Set<String> touched, GpuNode after) {
        Map<String, Quantity> next = new LinkedHashMap<>(current == null ? Map.of() : current);
        Set<String> all = new TreeSet<>(touched);
        next.keySet().stream().filter(r -> r.startsWith(NVIDIA)).forEach(all::add);
        for (String resource : all) {
            next.put(resource, new Quantity(Integer.toString(after.capacity().getOrDefault(resource, 0))));
        }
        return next;
    }
}
