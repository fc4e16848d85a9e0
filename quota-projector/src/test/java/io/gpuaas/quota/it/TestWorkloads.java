package io.gpuaas.quota.it;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.quota.k8s.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Plays Kueue in ITs: creates Workloads and moves their status the way Kueue would. */
final class TestWorkloads {

    private final KubernetesClient client;

    TestWorkloads(KubernetesClient client) {
        this.client = client;
    }

    /** A RayCluster-owned Workload in {@code namespace} on LocalQueue gpuaas: {@code pods} pods of one GPU each. */
    GenericKubernetesResource create(String namespace, String name, int pods) {
        GenericKubernetesResource workload = new GenericKubernetesResource();
        workload.setApiVersion(Kind.WORKLOAD.apiVersion());
        workload.setKind("Workload");
        workload.setMetadata(new ObjectMetaBuilder()
                .withNamespace(namespace)
                .withName(name)
                .addToLabels("kueue.x-k8s.io/queue-name", "gpuaas")
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("ray.io/v1")
                        .withKind("RayCluster")
                        .withName(name)
                        .withUid("uid-" + name)
                        .withController(true)
                        .build())
                .build());
        Map<String, Object> container = Map.of(
                "name",
                "worker",
                "image",
                "ray",
                "resources",
                Map.of("limits", Map.of("nvidia.com/gpu", "1"), "requests", Map.of("cpu", "2")));
        Map<String, Object> podSet = Map.of(
                "name", "workers", "count", pods, "template", Map.of("spec", Map.of("containers", List.of(container))));
        workload.setAdditionalProperty(
                "spec",
                new LinkedHashMap<>(Map.of("queueName", "gpuaas", "podSets", List.of(podSet), "priority", 100)));
        return client.genericKubernetesResources(Kind.WORKLOAD.context())
                .inNamespace(namespace)
                .resource(workload)
                .create();
    }

    /** Kueue reserving quota and admitting the Workload on {@code clusterQueue}, flavor h200. */
    GenericKubernetesResource admit(String namespace, String name, String clusterQueue, int gpus) {
        return status(namespace, name, status -> {
            Instant now = Instant.now();
            List<Map<String, Object>> conditions = conditions(status);
            conditions.add(condition("QuotaReserved", "True", "QuotaReserved", now));
            conditions.add(condition("Admitted", "True", "Admitted", now));
            status.put(
                    "admission",
                    Map.of(
                            "clusterQueue",
                            clusterQueue,
                            "podSetAssignments",
                            List.of(Map.of(
                                    "name",
                                    "workers",
                                    "count",
                                    gpus,
                                    "flavors",
                                    Map.of("nvidia.com/gpu", "h200"),
                                    "resourceUsage",
                                    Map.of("nvidia.com/gpu", Integer.toString(gpus))))));
        });
    }

    GenericKubernetesResource finish(String namespace, String name) {
        return status(namespace, name, status -> conditions(status)
                .add(condition("Finished", "True", "Succeeded", Instant.now())));
    }

    @SuppressWarnings("unchecked")
    private GenericKubernetesResource status(
            String namespace, String name, java.util.function.Consumer<Map<String, Object>> change) {
        var resource = client.genericKubernetesResources(Kind.WORKLOAD.context())
                .inNamespace(namespace)
                .withName(name);
        GenericKubernetesResource workload = resource.get();
        Map<String, Object> status = new LinkedHashMap<>(
                (Map<String, Object>) workload.getAdditionalProperties().getOrDefault("status", Map.of()));
        status.put("conditions", new ArrayList<>((List<Map<String, Object>>)
                status.getOrDefault("conditions", List.of())));
        change.accept(status);
        workload.setAdditionalProperty("status", status);
        return client.genericKubernetesResources(Kind.WORKLOAD.context())
                .inNamespace(namespace)
                .resource(workload)
                .updateStatus();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(Map<String, Object> status) {
        return (List<Map<String, Object>>) status.get("conditions");
    }

    private static Map<String, Object> condition(String type, String status, String reason, Instant at) {
        return Map.of(
                "type",
                type,
                "status",
                status,
                "reason",
                reason,
                "message",
                type,
                "lastTransitionTime",
                at.toString().replaceAll("\\.\\d+Z$", "Z"));
    }
}
