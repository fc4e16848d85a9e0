package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.local.model.Nested;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads ClusterQueue and Cohort quotas (v1beta2 field names) into the quota model's records. */
final class QuotaReader {

    private QuotaReader() {
    }

    static QueueQuota clusterQueue(GenericKubernetesResource queue) {
        Map<String, Object> spec = Nested.map(queue.getAdditionalProperties(), "spec");
        String stopPolicy = Nested.string(spec, "stopPolicy").orElse("None");
        return new QueueQuota(queue.getMetadata().getName(),
                Nested.string(spec, "cohortName").filter(c -> !c.isBlank()), quotas(spec), !"None".equals(stopPolicy));
    }

    static List<FlavorQuota> cohort(GenericKubernetesResource cohort) {
        return quotas(Nested.map(cohort.getAdditionalProperties(), "spec"));
    }

    private static List<FlavorQuota> quotas(Map<String, Object> spec) {
        List<FlavorQuota> quotas = new ArrayList<>();
        for (Object group : Nested.list(spec, "resourceGroups")) {
            for (Object flavor : Nested.list(group, "flavors")) {
                String flavorName = Nested.string(flavor, "name").orElse("");
                for (Object resource : Nested.list(flavor, "resources")) {
                    quotas.add(new FlavorQuota(flavorName, Nested.string(resource, "name").orElse(""),
                            Nested.get(resource, "nominalQuota").map(WorkloadView::units).orElse(0L),
                            optionalUnits(resource, "borrowingLimit"), optionalUnits(resource, "lendingLimit")));
                }
            }
        }
        return quotas;
    }

    private static Long optionalUnits(Object resource, String field) {
        Optional<Object> value = Nested.get(resource, field);
        return value.map(WorkloadView::units).orElse(null);
    }
}
