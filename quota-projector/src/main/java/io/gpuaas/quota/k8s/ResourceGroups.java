package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.model.FlavorResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Kueue {@code resourceGroups}: a resource may appear in only one group of a queue, and every flavor of a group lists
 * every covered resource, in the group's {@code coveredResources} order. Flavors whose resources overlap share a
 * group; where a flavor does not offer one of the group's resources it lists it at 0.
 */
final class ResourceGroups {

    private ResourceGroups() {}

    static List<io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups> render(
            SortedMap<FlavorResource, Long> nominal, boolean noBorrowing) {
        List<io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups> groups = new ArrayList<>();
        for (Group merged : merge(nominal)) {
            List<Flavors> flavorQuotas = new ArrayList<>();
            for (String flavor : merged.flavors()) {
                List<Resources> resources = new ArrayList<>();
                for (String resource : merged.covered()) {
                    // A flavor that does not offer a resource of its group lists it at 0 (Kueue wants every flavor
                    // of a group to list every covered resource).
                    long units = nominal.getOrDefault(new FlavorResource(flavor, resource), 0L);
                    resources.add(quota(resource, units, noBorrowing));
                }
                Flavors quotas = new Flavors();
                quotas.setName(flavor);
                quotas.setResources(resources);
                flavorQuotas.add(quotas);
            }
            var group = new io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups();
            group.setCoveredResources(merged.covered());
            group.setFlavors(flavorQuotas);
            groups.add(group);
        }
        return groups;
    }

    private record Group(List<String> covered, List<String> flavors) {}

    /**
     * Flavors whose resources overlap, directly or through another flavor, share one group covering the union of
     * their resources (Kueue: a resource is covered by exactly one group of a queue): a static {@code h200} flavor on
     * {@code nvidia.com/gpu} and a flexible flavor on {@code nvidia.com/gpu} and MIG resources make one group. Groups
     * in order of their first flavor; resources and flavors sorted.
     */
    private static List<Group> merge(SortedMap<FlavorResource, Long> nominal) {
        Map<String, TreeSet<String>> resourcesByFlavor = new TreeMap<>();
        nominal.keySet().forEach(c -> resourcesByFlavor
                .computeIfAbsent(c.flavor(), f -> new TreeSet<>())
                .add(c.resource()));
        List<TreeSet<String>> flavorSets = new ArrayList<>();
        List<TreeSet<String>> resourceSets = new ArrayList<>();
        resourcesByFlavor.forEach((flavor, resources) -> {
            TreeSet<String> flavors = new TreeSet<>(List.of(flavor));
            TreeSet<String> covered = new TreeSet<>(resources);
            for (int i = resourceSets.size() - 1; i >= 0; i--) {
                if (!java.util.Collections.disjoint(resourceSets.get(i), covered)) {
                    covered.addAll(resourceSets.remove(i));
                    flavors.addAll(flavorSets.remove(i));
                }
            }
            resourceSets.add(covered);
            flavorSets.add(flavors);
        });
        List<Group> groups = new ArrayList<>();
        for (int i = 0; i < resourceSets.size(); i++) {
            groups.add(new Group(List.copyOf(resourceSets.get(i)), List.copyOf(flavorSets.get(i))));
        }
        groups.sort(java.util.Comparator.comparing(g -> g.flavors().getFirst()));
        return groups;
    }

    /**
     * The group covering cpu and memory: one flavor without node labels, {@code borrowingLimit: 0} always (a queue
     * that borrowed cpu would count as a borrower and Kueue would not let it reclaim its booked GPUs).
     *
     * @param zero whether the queue holds none (draining)
     */
    static io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups nodeResources(
            NodeResourceSettings node, boolean zero) {
        Flavors flavor = new Flavors();
        flavor.setName(node.flavor());
        flavor.setResources(List.of(
                fixed(NodeResourceSettings.CPU, zero ? "0" : node.cpu()),
                fixed(NodeResourceSettings.MEMORY, zero ? "0" : node.memory())));
        var group = new io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups();
        group.setCoveredResources(List.of(NodeResourceSettings.CPU, NodeResourceSettings.MEMORY));
        group.setFlavors(List.of(flavor));
        return group;
    }

    private static Resources fixed(String resource, String nominal) {
        Resources quota = new Resources();
        quota.setName(resource);
        quota.setNominalQuota(new IntOrString(nominal));
        quota.setBorrowingLimit(new IntOrString("0"));
        return quota;
    }

    private static Resources quota(String resource, long nominal, boolean noBorrowing) {
        Resources quota = new Resources();
        quota.setName(resource);
        quota.setNominalQuota(new IntOrString(Long.toString(nominal)));
        if (noBorrowing) {
            quota.setBorrowingLimit(new IntOrString("0"));
        }
        return quota;
    }
}
