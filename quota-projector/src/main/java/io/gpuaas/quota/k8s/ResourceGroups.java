package io.gpuaas.quota.k8s;

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

    private ResourceGroups() {
    }

    static List<Map<String, Object>> render(SortedMap<FlavorResource, Long> nominal, boolean noBorrowing) {
        Map<String, List<String>> resourcesByFlavor = new TreeMap<>();
        nominal.keySet().forEach(c -> resourcesByFlavor.computeIfAbsent(c.flavor(), f -> new ArrayList<>()).add(c.resource()));
        Map<List<String>, List<String>> flavorsByResources = new LinkedHashMap<>();
        resourcesByFlavor.forEach((flavor, resources) ->
                flavorsByResources.computeIfAbsent(resources, r -> new ArrayList<>()).add(flavor));
        checkDisjoint(flavorsByResources);
        List<Map<String, Object>> groups = new ArrayList<>();
        flavorsByResources.forEach((covered, flavors) -> {
            List<Map<String, Object>> flavorQuotas = new ArrayList<>();
            for (String flavor : flavors) {
                List<Map<String, Object>> resources = new ArrayList<>();
                for (String resource : covered) {
                    resources.add(quota(resource, nominal.get(new FlavorResource(flavor, resource)), noBorrowing));
                }
                flavorQuotas.add(Map.of("name", flavor, "resources", resources));
            }
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("coveredResources", List.copyOf(covered));
            group.put("flavors", flavorQuotas);
            groups.add(group);
        });
        return groups;
    }

    private static Map<String, Object> quota(String resource, long nominal, boolean noBorrowing) {
        Map<String, Object> quota = new LinkedHashMap<>();
        quota.put("name", resource);
        quota.put("nominalQuota", Long.toString(nominal));
        if (noBorrowing) {
            quota.put("borrowingLimit", "0");
        }
        return quota;
    }

    private static void checkDisjoint(Map<List<String>, List<String>> flavorsByResources) {
        Map<String, List<String>> groupOf = new TreeMap<>();
        flavorsByResources.keySet().forEach(covered -> covered.forEach(resource -> {
            List<String> previous = groupOf.put(resource, covered);
            if (previous != null) {
                throw new IllegalArgumentException("resource " + resource + " is covered by flavors with different"
                        + " resource sets " + previous + " and " + covered + "; Kueue needs one resource group each");
            }
        }));
    }
}
