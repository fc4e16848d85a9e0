package io.gpuaas.testing.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(KubernetesApiExtension.class)
class KubernetesApiIT {

    KubernetesApi api;

    @Test
    void shouldStoreClusterQueueWithoutNamespaceWhenCreatedThroughGenericClient() {
        api.resources(GpuaasCrd.CLUSTER_QUEUE)
                .resource(clusterQueue("gpuaas-team-a", 4))
                .create();

        GenericKubernetesResource stored =
                api.resources(GpuaasCrd.CLUSTER_QUEUE).withName("gpuaas-team-a").get();

        assertThat(stored.getMetadata().getNamespace()).isNull();
        assertThat(stored.getMetadata().getResourceVersion()).isNotBlank();
        assertThat(stored.<String>get("spec", "cohortName")).isEqualTo("gpuaas-pool");
        assertThat(api.client()
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .list()
                        .getItems())
                .extracting(crd -> crd.getMetadata().getName())
                .contains(
                        "clusterqueues.kueue.x-k8s.io",
                        "workloads.kueue.x-k8s.io",
                        "rayclusters.ray.io",
                        "inferenceservices.serving.kserve.io",
                        "hardwareprofiles.infrastructure.opendatahub.io");
    }

    @Test
    void shouldRejectUpdateWhenResourceVersionIsStale() {
        var queues = api.resources(GpuaasCrd.CLUSTER_QUEUE);
        GenericKubernetesResource created =
                queues.resource(clusterQueue("gpuaas-stale", 1)).create();
        GenericKubernetesResource stale = queues.withName("gpuaas-stale").get();

        created.setAdditionalProperty("spec", Map.of("cohortName", "gpuaas-pool", "note", "first"));
        queues.resource(created).update();
        stale.setAdditionalProperty("spec", Map.of("cohortName", "gpuaas-pool", "note", "second"));

        assertThatThrownBy(() -> queues.resource(stale).update())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e ->
                        assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));
    }

    @Test
    void shouldDeliverWatchEventsWhenWorkloadsChange() {
        List<String> events = new CopyOnWriteArrayList<>();
        var workloads = api.resources(GpuaasCrd.WORKLOAD).inNamespace("team-a");
        try (Watch ignored = workloads.watch(recorder(events))) {
            GenericKubernetesResource wl = workloads.resource(workload("job-1")).create();
            wl.setAdditionalProperty(
                    "status", Map.of("conditions", List.of(Map.of("type", "Admitted", "status", "True"))));
            workloads.resource(wl).updateStatus();
            workloads.withName("job-1").delete();

            await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 3);
        }
        assertThat(events).startsWith("ADDED job-1", "MODIFIED job-1").contains("DELETED job-1");
    }

    @Test
    void shouldKeepSpecWhenOnlyStatusIsUpdated() {
        var workloads = api.resources(GpuaasCrd.WORKLOAD).inNamespace("team-b");
        GenericKubernetesResource wl = workloads.resource(workload("job-2")).create();

        wl.setAdditionalProperty("spec", Map.of("queueName", "changed-through-status"));
        wl.setAdditionalProperty(
                "status", Map.of("conditions", List.of(Map.of("type", "QuotaReserved", "status", "True"))));
        workloads.resource(wl).updateStatus();

        GenericKubernetesResource stored = workloads.withName("job-2").get();
        assertThat(stored.<String>get("spec", "queueName")).isEqualTo("gpuaas");
        assertThat(stored.<String>get("status", "conditions", 0, "type")).isEqualTo("QuotaReserved");
    }

    @Test
    void shouldServeAnotherClientWhenItReadsTheWrittenKubeconfig(@TempDir Path dir) {
        api.resources(GpuaasCrd.RESOURCE_FLAVOR)
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion(GpuaasCrd.RESOURCE_FLAVOR.apiVersion())
                        .withKind("ResourceFlavor")
                        .withNewMetadata()
                        .withName("h200")
                        .endMetadata()
                        .build())
                .create();
        Path kubeconfig = api.writeKubeconfig(dir.resolve("kubeconfig"));

        Config config = Config.fromKubeconfig(null, kubeconfig.toFile());
        try (KubernetesClient other =
                new KubernetesClientBuilder().withConfig(config).build()) {
            assertThat(other.genericKubernetesResources(GpuaasCrd.RESOURCE_FLAVOR.context())
                            .list()
                            .getItems())
                    .extracting(r -> r.getMetadata().getName())
                    .contains("h200");
            assertThat(other.getNamespace()).isEqualTo(KubernetesApi.DEFAULT_NAMESPACE);
        }
    }

    @Test
    void shouldAnswerOnlyTheDelayedRequestsLateWhenTheApiIsSlowedDown() throws Exception {
        var queues = api.resources(GpuaasCrd.CLUSTER_QUEUE);
        GenericKubernetesResource slow =
                queues.resource(clusterQueue("gpuaas-slow", 1)).create();
        GenericKubernetesResource fast =
                queues.resource(clusterQueue("gpuaas-fast", 1)).create();
        api.delayResponses("PUT", "/clusterqueues/gpuaas-slow", Duration.ofSeconds(2));
        try {
            slow.setAdditionalProperty("spec", Map.of("cohortName", "gpuaas-pool", "note", "slow"));
            long started = System.nanoTime();
            var hanging = java.util.concurrent.CompletableFuture.runAsync(
                    () -> queues.resource(slow).update());

            // While the slow update waits for its answer, everything else is answered at once.
            await().atMost(Duration.ofSeconds(1)).until(() -> "slow"
                    .equals(queues.withName("gpuaas-slow").get().<String>get("spec", "note")));
            fast.setAdditionalProperty("spec", Map.of("cohortName", "gpuaas-pool", "note", "fast"));
            queues.resource(fast).update();
            assertThat(hanging).isNotDone();
            hanging.get(10, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        } finally {
            api.clearDelays();
        }
    }

    static GenericKubernetesResource clusterQueue(String name, int gpus) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(GpuaasCrd.CLUSTER_QUEUE.apiVersion())
                .withKind("ClusterQueue")
                .withNewMetadata()
                .withName(name)
                .addToLabels("app.kubernetes.io/managed-by", "gpuaas")
                .endMetadata()
                .addToAdditionalProperties(
                        "spec",
                        Map.of(
                                "cohortName",
                                "gpuaas-pool",
                                "resourceGroups",
                                List.of(Map.of(
                                        "coveredResources", List.of("nvidia.com/gpu"),
                                        "flavors",
                                                List.of(Map.of(
                                                        "name",
                                                        "h200",
                                                        "resources",
                                                        List.of(Map.of(
                                                                "name", "nvidia.com/gpu", "nominalQuota", gpus))))))))
                .build();
    }

    static GenericKubernetesResource workload(String name) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(GpuaasCrd.WORKLOAD.apiVersion())
                .withKind("Workload")
                .withNewMetadata()
                .withName(name)
                .addToLabels("kueue.x-k8s.io/queue-name", "gpuaas")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("queueName", "gpuaas"))
                .build();
    }

    private static Watcher<GenericKubernetesResource> recorder(List<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
                events.add(action + " " + resource.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {}
        };
    }
}
