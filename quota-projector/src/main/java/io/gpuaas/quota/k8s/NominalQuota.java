package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.ResourceGroups;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.flavors.Resources;
import io.gpuaas.quota.model.FlavorResource;
import java.math.BigDecimal;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** {@code spec.resourceGroups[].flavors[].resources[].nominalQuota} of a Cohort or ClusterQueue, per cell. */
public final class NominalQuota {

    private NominalQuota() {}

    /** The nominal quota of a Cohort or ClusterQueue; empty for anything else. */
    public static SortedMap<FlavorResource, BigDecimal> of(HasMetadata object) {
        return switch (object) {
            case ClusterQueue queue ->
                queue.getSpec() == null ? new TreeMap<>() : of(queue.getSpec().getResourceGroups());
            case Cohort cohort ->
                cohort.getSpec() == null ? new TreeMap<>() : of(cohort.getSpec().getResourceGroups());
            case null, default -> new TreeMap<>();
        };
    }

    static SortedMap<FlavorResource, BigDecimal> of(List<ResourceGroups> groups) {
        SortedMap<FlavorResource, BigDecimal> quota = new TreeMap<>();
        for (ResourceGroups group : groups == null ? List.<ResourceGroups>of() : groups) {
            for (Flavors flavor : group.getFlavors() == null ? List.<Flavors>of() : group.getFlavors()) {
                for (Resources resource :
                        flavor.getResources() == null ? List.<Resources>of() : flavor.getResources()) {
                    if (resource.getNominalQuota() != null) {
                        quota.merge(
                                new FlavorResource(flavor.getName(), resource.getName()),
                                quantity(resource.getNominalQuota()),
                                BigDecimal::add);
                    }
                }
            }
        }
        return quota;
    }

    /** An int-or-string quantity ({@code 8}, {@code "8"}, {@code "1k"}) as a number. */
    public static BigDecimal quantity(IntOrString value) {
        return value.getIntVal() != null ? BigDecimal.valueOf(value.getIntVal()) : quantity(value.getStrVal());
    }

    /** A quantity's text as a number; only suffixed ones ({@code "1k"}, {@code "500m"}) need Kubernetes' parser. */
    public static BigDecimal quantity(String text) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException suffixed) {
            return Quantity.getAmountInBytes(new Quantity(text));
        }
    }
}
