package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.model.FlavorResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Kueue {@code resourceGroups}: flavors covering the same resources share a group, and a resource may appear in
 * only one group of a queue. Each flavor lists its resources in the group's {@code coveredResources} order.
 */
final class ResourceGroups {

    private ResourceGroups() {}

    static List<io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups> render(
            SortedMap<FlavorResource, Long> nominal, boolean noBorrowing) {
        Map<String, List<String>> resourcesByFlavor = new TreeMap<>();
        nominal.keySet().forEach(c -> resourcesByFlavor
                .computeIfAbsent(c.flavor(), f -> new ArrayList<>())
                .add(c.resource()));
        Map<List<String>, List<String>> flavorsByResources = new LinkedHashMap<>();
        resourcesByFlavor.forEach((flavor, resources) -> flavorsByResources
                .computeIfAbsent(resources, r -> new ArrayList<>())
                .add(flavor));
        checkDisjoint(flavorsByResources);
        List<io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups> groups = new ArrayList<>();
        flavorsByResources.forEach((covered, flavors) -> {
            List<Flavors> flavorQuotas = new ArrayList<>();
            for (String flavor : flavors) {
                List<Resources> resources = new ArrayList<>();
                for (String resource : covered) {
                    resources.add(quota(resource, nominal.get(new FlavorResource(flavor, resource)), noBorrowing));
                }
                Flavors quotas = new Flavors();
                quotas.setName(flavor);
                quotas.setResources(resources);
                flavorQuotas.add(quotas);
            }
            var group = new io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups();
            group.setCoveredResources(List.copyOf(covered));
            group.setFlavors(flavorQuotas);
            groups.add(group);
        });
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

    private static void checkDisjoint(Map<List<String>, List<String>> flavorsByResources) {
        Map<String, List<String>> groupOf = new TreeMap<>();
        flavorsByResources
                .keySet()
                .forEach(covered -> covered.forEach(resource -> {
                    List<String> previous = groupOf.put(resource, covered);
                    if (previous != null) {
                        throw new IllegalArgumentException(
                                "resource " + resource + " is covered by flavors with different" + " resource sets "
                                        + previous + " and " + covered + "; Kueue needs one resource group each");
                    }
                }));
    }
}
