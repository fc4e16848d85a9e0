package io.gpuaas.local.kueue;

import static io.gpuaas.local.kueue.WorkloadView.listOf;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueueSpec;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Reads ClusterQueue and Cohort quotas (v1beta2 field names) into the quota model's records. */
final class QuotaReader {

    private QuotaReader() {}

    static QueueQuota clusterQueue(ClusterQueue queue) {
        ClusterQueueSpec spec = Optional.ofNullable(queue.getSpec()).orElseGet(ClusterQueueSpec::new);
        String stopPolicy = Objects.requireNonNullElse(spec.getStopPolicy(), "None");
        return new QueueQuota(
                queue.getMetadata().getName(),
                Optional.ofNullable(spec.getCohortName()).filter(c -> !c.isBlank()),
                quotas(spec.getResourceGroups()),
                !"None".equals(stopPolicy),
                preemption(spec));
    }

    private static PreemptionPolicy preemption(ClusterQueueSpec spec) {
        return spec.getPreemption() == null
                ? PreemptionPolicy.NONE
                : new PreemptionPolicy(
                        spec.getPreemption().getReclaimWithinCohort(),
                        spec.getPreemption().getWithinClusterQueue());
    }

    static List<FlavorQuota> cohort(Cohort cohort) {
        return cohort.getSpec() == null ? List.of() : quotas(cohort.getSpec().getResourceGroups());
    }

    private static List<FlavorQuota> quotas(List<ResourceGroups> groups) {
        List<FlavorQuota> quotas = new ArrayList<>();
        for (ResourceGroups group : listOf(groups)) {
            for (Flavors flavor : listOf(group.getFlavors())) {
                String flavorName = Objects.requireNonNullElse(flavor.getName(), "");
                for (Resources resource : listOf(flavor.getResources())) {
                    String name = Objects.requireNonNullElse(resource.getName(), "");
                    quotas.add(new FlavorQuota(
                            flavorName,
                            name,
                            ResourceUnits.of(name, resource.getNominalQuota()),
                            optionalUnits(name, resource.getBorrowingLimit()),
                            optionalUnits(name, resource.getLendingLimit())));
                }
            }
        }
        return quotas;
    }

    private static Long optionalUnits(String resource, IntOrString value) {
        return value == null ? null : ResourceUnits.of(resource, value);
    }
}
