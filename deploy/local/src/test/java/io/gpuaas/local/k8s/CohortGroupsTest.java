package io.gpuaas.local.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import io.gpuaas.local.fleet.FleetLayout;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CohortGroupsTest {

    @Test
    void shouldKeepOneGroupPerPoolWhenThereIsNoFlexiblePool() {
        List<ResourceGroups> groups =
                ClusterSeeder.cohort(FleetLayout.of(16).pools()).getSpec().getResourceGroups();

        assertThat(groups)
                .extracting(ResourceGroups::getCoveredResources)
                .containsExactly(
                        List.of("nvidia.com/gpu"),
                        List.of("nvidia.com/mig-1g.18gb"),
                        List.of("nvidia.com/mig-2g.35gb"),
                        List.of("nvidia.com/mig-3g.71gb"));
    }

    @Test
    void shouldCoverEachResourceInOneGroupAsKueueRequiresWhenTheFlexiblePoolSharesThem() {
        List<ResourceGroups> groups =
                ClusterSeeder.cohort(FleetLayout.of(16, 8).pools()).getSpec().getResourceGroups();

        Set<String> seen = new HashSet<>();
        for (ResourceGroups group : groups) {
            for (String resource : group.getCoveredResources()) {
                assertThat(seen.add(resource))
                        .as(resource + " in one group only")
                        .isTrue();
            }
            for (Flavors flavor : group.getFlavors()) {
                assertThat(flavor.getResources())
                        .extracting(Resources::getName)
                        .as("flavor %s lists the group's resources in order", flavor.getName())
                        .isEqualTo(group.getCoveredResources());
            }
        }
        Map<String, String> flex = quotas(groups, "h200-flex");
        assertThat(flex)
                .containsEntry("nvidia.com/gpu", "8")
                .containsEntry("nvidia.com/mig-1g.18gb", "56")
                .containsEntry("nvidia.com/mig-1g.35gb", "32")
                .containsEntry("nvidia.com/mig-2g.35gb", "24")
                .containsEntry("nvidia.com/mig-3g.71gb", "16")
                .containsEntry("nvidia.com/mig-4g.71gb", "8")
                .containsEntry("nvidia.com/mig-7g.141gb", "8");
        assertThat(quotas(groups, "h200"))
                .containsEntry("nvidia.com/gpu", "8")
                .containsEntry("nvidia.com/mig-1g.18gb", "0");
        assertThat(quotas(groups, "h200-mig-1g.18gb"))
                .containsEntry("nvidia.com/mig-1g.18gb", "14")
                .containsEntry("nvidia.com/gpu", "0");
    }

    private static Map<String, String> quotas(List<ResourceGroups> groups, String flavor) {
        Map<String, String> quotas = new java.util.TreeMap<>();
        groups.stream()
                .flatMap(g -> g.getFlavors().stream())
                .filter(f -> f.getName().equals(flavor))
                .flatMap(f -> f.getResources().stream())
                .forEach(r -> quotas.put(r.getName(), r.getNominalQuota().getStrVal()));
        return quotas;
    }
}
