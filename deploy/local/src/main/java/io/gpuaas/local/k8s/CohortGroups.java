package io.gpuaas.local.k8s;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue resource groups from per-flavor capacities. A resource may be covered by one group only, and every flavor of
 * a group lists exactly the group's resources, so flavors that share any resource (the whole-GPU flavor and the
 * flexible one, both offering {@code nvidia.com/gpu}; a MIG flavor and the flexible one offering its profile) end up
 * in one group, each with 0 for the resources it does not offer. Flavors sharing nothing keep a group of their own,
 * in the order given.
 */
final class CohortGroups {

    private CohortGroups() {}

    /**
     * One flavor's units per resource.
     *
     * @param flavor ResourceFlavor name
     * @param units  units per resource, in the order the flavor lists them
     */
    record FlavorCapacity(String flavor, Map<String, Integer> units) {

        FlavorCapacity {
            units = Collections.unmodifiableMap(new LinkedHashMap<>(units));
        }
    }

    static List<ResourceGroups> of(List<FlavorCapacity> flavors) {
        List<List<FlavorCapacity>> groups = new ArrayList<>();
        for (FlavorCapacity flavor : flavors) {
            List<FlavorCapacity> merged = new ArrayList<>();
            int at = groups.size();
            for (int i = groups.size() - 1; i >= 0; i--) {
                if (!Collections.disjoint(covered(groups.get(i)), flavor.units().keySet())) {
                    merged.addAll(0, groups.remove(i));
                    at = i;
                }
            }
            merged.add(flavor);
            groups.add(Math.min(at, groups.size()), merged);
        }
        return groups.stream().map(CohortGroups::group).toList();
    }

    private static Set<String> covered(List<FlavorCapacity> group) {
        Set<String> covered = new LinkedHashSet<>();
        group.forEach(f -> covered.addAll(f.units().keySet()));
        return covered;
    }

    private static ResourceGroups group(List<FlavorCapacity> members) {
        List<String> covered = List.copyOf(covered(members));
        List<Flavors> flavors = new ArrayList<>();
        for (FlavorCapacity member : members) {
            List<Resources> quotas = new ArrayList<>();
            for (String resource : covered) {
                Resources quota = new Resources();
                quota.setName(resource);
                // A string, as Kueue serialises resource.Quantity.
                quota.setNominalQuota(
                        new IntOrString(Integer.toString(member.units().getOrDefault(resource, 0))));
                quotas.add(quota);
            }
            Flavors flavor = new Flavors();
            flavor.setName(member.flavor());
            flavor.setResources(quotas);
            flavors.add(flavor);
        }
        ResourceGroups group = new ResourceGroups();
        group.setCoveredResources(covered);
        group.setFlavors(flavors);
        return group;
    }
}
