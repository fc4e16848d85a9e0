package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadSpec;
import io.gpuaas.kube.kueue.v1beta2.workloadspec.PodSets;
import io.gpuaas.kube.kueue.v1beta2.workloadspec.PriorityClassRef;
import io.gpuaas.local.model.PodSetDemand;
import io.gpuaas.local.model.WorkloadOwner;
import io.gpuaas.local.model.WorkloadOwner.PodTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Workload Kueue's RayCluster and InferenceService integrations create for an owner. */
final class WorkloadFactory {

    static final String JOB_UID_LABEL = "kueue.x-k8s.io/job-uid";

    private WorkloadFactory() {}

    /**
     * The Workload of {@code owner}, its priority from the WorkloadPriorityClass its job label names (0 without one),
     * as Kueue's job integrations set {@code spec.priorityClassRef} and {@code spec.priority}.
     *
     * @param priorityClass the class the owner's {@code kueue.x-k8s.io/priority-class} label names, with its value
     */
    static Workload workload(WorkloadOwner owner, Optional<PriorityClasses.Named> priorityClass) {
        Workload workload = new Workload();
        workload.setMetadata(new ObjectMetaBuilder()
                .withName(owner.workloadName())
                .withNamespace(owner.namespace())
                .withLabels(Map.of(JOB_UID_LABEL, owner.uid()))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(owner.apiVersion())
                        .withKind(owner.kind())
                        .withName(owner.name())
                        .withUid(owner.uid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .build());
        WorkloadSpec spec = new WorkloadSpec();
        spec.setActive(true);
        spec.setQueueName(owner.queueName().orElse(""));
        spec.setPriority(priorityClass.map(PriorityClasses.Named::value).orElse(0));
        priorityClass.ifPresent(named -> {
            PriorityClassRef ref = new PriorityClassRef();
            ref.setGroup(PriorityClasses.GROUP);
            ref.setKind(PriorityClasses.KIND);
            ref.setName(named.name());
            spec.setPriorityClassRef(ref);
        });
        spec.setPodSets(podSets(owner));
        workload.setSpec(spec);
        return workload;
    }

    static List<PodSets> podSets(WorkloadOwner owner) {
        List<PodSets> podSets = new ArrayList<>();
        for (PodSetDemand demand : owner.podSets()) {
            PodTemplate template = owner.templates().get(demand.name());
            Map<String, Quantity> requests = new LinkedHashMap<>();
            template.requests().forEach((resource, quantity) -> requests.put(resource, new Quantity(quantity)));
            demand.perPod().forEach((resource, units) -> requests.put(resource, new Quantity(Long.toString(units))));
            PodSets podSet = new PodSets();
            podSet.setName(demand.name());
            podSet.setCount(demand.count());
            podSet.setTemplate(new PodTemplateSpecBuilder()
                    .withNewSpec()
                    .withContainers(new ContainerBuilder()
                            .withName(template.container())
                            .withImage(template.image())
                            .withNewResources()
                            .withRequests(requests)
                            .endResources()
                            .build())
                    .endSpec()
                    .build());
            podSets.add(podSet);
        }
        return podSets;
    }
}
