package io.gpuaas.system.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Json;
import io.gpuaas.local.fleet.Attribution;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;

/** What the scenario reads from and writes to the in-memory Kubernetes API, as JSON trees. */
final class ClusterView {

    static final String TENANT_QUEUE = "gpuaas-team-a";
    static final String LOCAL_QUEUE = "gpuaas";
    static final String COHORT = "gpuaas-pool";
    static final String FLAVOR = "h200-mig-1g.18gb";
    static final String RESOURCE = "nvidia.com/mig-1g.18gb";

    private final KubernetesClient client;

    ClusterView(KubernetesClient client) {
        this.client = client;
    }

    /** Creates the RayCluster in resource {@code e2e/<file>}. */
    void apply(String file) throws IOException {
        try (InputStream in = ClusterView.class.getResourceAsStream("/e2e/" + file)) {
            GenericKubernetesResource cluster = client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context())
                    .load(in)
                    .item();
            client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context())
                    .inNamespace(cluster.getMetadata().getNamespace())
                    .resource(cluster)
                    .create();
        }
    }

    Optional<JsonNode> clusterQueue(String name) {
        return tree(client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context())
                .withName(name)
                .get());
    }

    Optional<JsonNode> localQueue(String namespace, String name) {
        return tree(client.genericKubernetesResources(GpuaasCrd.LOCAL_QUEUE.context())
                .inNamespace(namespace)
                .withName(name)
                .get());
    }

    JsonNode cohort() {
        return tree(client.genericKubernetesResources(GpuaasCrd.COHORT.context())
                        .withName(COHORT)
                        .get())
                .orElseThrow();
    }

    JsonNode rayCluster(String name) {
        return tree(client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context())
                        .inNamespace("team-a")
                        .withName(name)
                        .get())
                .orElseThrow();
    }

    /** Deletes a RayCluster of team-a (the Kueue stand-in then finishes and deletes its Workload). */
    void deleteRayCluster(String name) {
        client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context())
                .inNamespace("team-a")
                .withName(name)
                .delete();
    }

    /** Sets the simulated utilization of a RayCluster's devices: {@code busy}, {@code idle} or a ratio. */
    void simulateUtilization(String rayCluster, String value) {
        client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context())
                .inNamespace("team-a")
                .withName(rayCluster)
                .edit(r -> {
                    var annotations = new HashMap<>(
                            r.getMetadata().getAnnotations() == null
                                    ? Map.of()
                                    : r.getMetadata().getAnnotations());
                    annotations.put(Attribution.ANNOTATION, value);
                    r.getMetadata().setAnnotations(annotations);
                    return r;
                });
    }

    /** The Kueue Workload the stand-in made for a RayCluster of team-a. */
    Optional<JsonNode> workloadOf(String rayCluster) {
        return client
                .genericKubernetesResources(GpuaasCrd.WORKLOAD.context())
                .inNamespace("team-a")
                .list()
                .getItems()
                .stream()
                .map(ClusterView::tree)
                .flatMap(Optional::stream)
                .filter(w -> StreamSupport.stream(
                                w.path("metadata").path("ownerReferences").spliterator(), false)
                        .anyMatch(o -> rayCluster.equals(o.path("name").asText())))
                .findFirst();
    }

    /** Running worker pods of a RayCluster of team-a. */
    List<Pod> runningWorkers(String rayCluster) {
        return client
                .pods()
                .inNamespace("team-a")
                .withLabel("ray.io/cluster", rayCluster)
                .withLabel("ray.io/node-type", "worker")
                .list()
                .getItems()
                .stream()
                .filter(p ->
                        p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
                .toList();
    }

    /** The core/v1 Events of {@code reason} on objects of {@code kind}, as {@code kubectl describe} lists them. */
    List<Event> events(String namespace, String reason, String kind) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason())
                        && kind.equals(e.getInvolvedObject().getKind()))
                .toList();
    }

    static boolean condition(JsonNode object, String type) {
        return StreamSupport.stream(object.path("status").path("conditions").spliterator(), false)
                .anyMatch(c -> type.equals(c.path("type").asText())
                        && "True".equals(c.path("status").asText()));
    }

    /** nominalQuota of {@code flavor}/{@code resource} in a ClusterQueue's or Cohort's resourceGroups. */
    static Optional<String> nominalQuota(JsonNode queue, String flavor, String resource) {
        for (JsonNode group : queue.path("spec").path("resourceGroups")) {
            for (JsonNode f : group.path("flavors")) {
                if (!flavor.equals(f.path("name").asText())) {
                    continue;
                }
                for (JsonNode r : f.path("resources")) {
                    if (resource.equals(r.path("name").asText())) {
                        return Optional.of(r.path("nominalQuota").asText());
                    }
                }
            }
        }
        return Optional.empty();
    }

    static JsonNode workerGroup(JsonNode rayCluster) {
        return rayCluster.path("spec").path("workerGroupSpecs").get(0);
    }

    private static Optional<JsonNode> tree(GenericKubernetesResource resource) {
        return Optional.ofNullable(resource).map(r -> Json.mapper().valueToTree(r));
    }
}
