package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.quota.model.FlavorResource;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Reads {@code spec.resourceGroups[].flavors[].resources[].nominalQuota} of a Cohort or ClusterQueue. */
public final class NominalQuota {

    private NominalQuota() {
    }

    public static SortedMap<FlavorResource, BigDecimal> of(GenericKubernetesResource object) {
        SortedMap<FlavorResource, BigDecimal> quota = new TreeMap<>();
        Object spec = object.getAdditionalProperties().get("spec");
        if (!(spec instanceof Map<?, ?> specMap)) {
            return quota;
        }
        for (Map<?, ?> group : maps(specMap.get("resourceGroups"))) {
            for (Map<?, ?> flavor : maps(group.get("flavors"))) {
                for (Map<?, ?> resource : maps(flavor.get("resources"))) {
                    Object nominal = resource.get("nominalQuota");
                    if (nominal != null) {
                        quota.merge(new FlavorResource(String.valueOf(flavor.get("name")), String.valueOf(resource.get("name"))),
                                quantity(nominal), BigDecimal::add);
                    }
                }
            }
        }
        return quota;
    }

    static BigDecimal quantity(Object value) {
        String text = value.toString();
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException suffixed) {
            // Only quantities with a suffix ("1k", "500m") need the slower Kubernetes parser.
            return Quantity.getAmountInBytes(new Quantity(text));
        }
    }

    private static List<Map<?, ?>> maps(Object list) {
        if (!(list instanceof List<?> items)) {
            return List.of();
        }
        return items.stream().filter(Map.class::isInstance).<Map<?, ?>>map(Map.class::cast).toList();
    }
}
