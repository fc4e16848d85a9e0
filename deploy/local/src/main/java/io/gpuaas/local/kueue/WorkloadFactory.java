package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.gpuaas.local.model.PodSetDemand;
import io.gpuaas.local.model.WorkloadOwner;
import io.gpuaas.local.model.WorkloadOwner.PodTemplate;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Workload Kueue's RayCluster and InferenceService integrations create for an owner. */
final class WorkloadFactory {

    static final String JOB_UID_LABEL = "kueue.x-k8s.io/job-uid";

    private WorkloadFactory() {
    }

    static GenericKubernetesResource workload(WorkloadOwner owner) {
        GenericKubernetesResource workload = new GenericKubernetesResource();
        workload.setApiVersion(GpuaasCrd.WORKLOAD.apiVersion());
        workload.setKind(GpuaasCrd.WORKLOAD.kind());
        workload.setMetadata(new ObjectMetaBuilder()
                .withName(owner.workloadName())
                .withNamespace(owner.namespace())
                .withLabels(Map.of(JOB_UID_LABEL, owner.uid()))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(owner.apiVersion()).withKind(owner.kind()).withName(owner.name())
                        .withUid(owner.uid()).withController(true).withBlockOwnerDeletion(true).build())
                .build());
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("active", true);
        spec.put("queueName", owner.queueName().orElse(""));
        spec.put("priority", 0);
        spec.put("podSets", podSets(owner));
        workload.setAdditionalProperty("spec", spec);
        return workload;
    }

    static List<Map<String, Object>> podSets(WorkloadOwner owner) {
        List<Map<String, Object>> podSets = new ArrayList<>();
        for (PodSetDemand demand : owner.podSets()) {
            PodTemplate template = owner.templates().get(demand.name());
            Map<String, Object> requests = new LinkedHashMap<>(template.requests());
            demand.perPod().forEach((resource, units) -> requests.put(resource, Long.toString(units)));
            Map<String, Object> container = new LinkedHashMap<>();
            container.put("name", template.container());
            container.put("image", template.image());
            container.put("resources", Map.of("requests", requests));
            Map<String, Object> podSet = new LinkedHashMap<>();
            podSet.put("name", demand.name());
            podSet.put("count", demand.count());
            podSet.put("template", Map.of("spec", Map.of("containers", List.of(container))));
            podSets.add(podSet);
        }
        return podSets;
    }
}
