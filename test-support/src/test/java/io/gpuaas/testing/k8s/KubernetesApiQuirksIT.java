package io.gpuaas.testing.k8s;

import static io.gpuaas.testing.k8s.KubernetesApiIT.clusterQueue;
import static io.gpuaas.testing.k8s.KubernetesApiIT.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Pins down where the CRUD mock behaves like a real API server and where it does not (see README). */
@ExtendWith(KubernetesApiExtension.class)
class KubernetesApiQuirksIT {

    @Test
    void shouldIgnoreStatusAndBumpGenerationWhenMainResourceIsUpdated(KubernetesApi api) {
        var queues = api.resources(GpuaasCrd.CLUSTER_QUEUE);
        GenericKubernetesResource queue =
                queues.resource(clusterQueue("gen", 1)).create();
        assertThat(queue.getMetadata().getGeneration()).isEqualTo(1L);
        assertThat(queue.getMetadata().getUid()).isNotBlank();

        queue.setAdditionalProperty("spec", Map.of("cohortName", "other"));
        queue.setAdditionalProperty("status", Map.of("pendingWorkloads", 3));
        GenericKubernetesResource updated = queues.resource(queue).update();
        assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);
        assertThat(updated.getAdditionalProperties().get("status"))
                .as("status ignored on main resource")
                .isNull();

        updated.setAdditionalProperty("status", Map.of("pendingWorkloads", 4));
        GenericKubernetesResource statusOnly = queues.resource(updated).updateStatus();

        assertThat(statusOnly.getMetadata().getGeneration())
                .as("status writes keep generation")
                .isEqualTo(2L);
        assertThat(statusOnly.<Integer>get("status", "pendingWorkloads")).isEqualTo(4);
    }

    @Test
    void shouldApplyMergeAndJsonPatchesButRejectServerSideApply(KubernetesApi api) {
        var queues = api.resources(GpuaasCrd.CLUSTER_QUEUE);
        queues.resource(clusterQueue("patched", 1)).create();

        queues.withName("patched")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"stopPolicy\":\"HoldAndDrain\"}}");
        queues.withName("patched")
                .patch(
                        PatchContext.of(PatchType.JSON),
                        "[{\"op\":\"replace\",\"path\":\"/spec/cohortName\",\"value\":\"gpuaas-pool-2\"}]");

        GenericKubernetesResource stored = queues.withName("patched").get();
        assertThat(stored.<String>get("spec", "stopPolicy")).isEqualTo("HoldAndDrain");
        assertThat(stored.<String>get("spec", "cohortName")).isEqualTo("gpuaas-pool-2");
        assertThatThrownBy(() -> queues.resource(clusterQueue("applied", 1))
                        .fieldManager("gpuaas")
                        .forceConflicts()
                        .serverSideApply())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(404));
        assertThatThrownBy(() -> queues.withName("patched").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(415));
    }

    @Test
    void shouldFilterByLabelsAndKeepFinalizedObjectsWhenDeleted(KubernetesApi api) {
        var workloads = api.resources(GpuaasCrd.WORKLOAD).inNamespace("never-created");
        GenericKubernetesResource held = workload("held");
        held.getMetadata().setFinalizers(List.of("kueue.x-k8s.io/resource-in-use"));
        workloads.resource(held).create();
        workloads.resource(workload("other")).create();
        workloads.withName("other").edit(r -> {
            r.getMetadata().getLabels().put("kueue.x-k8s.io/queue-name", "elsewhere");
            return r;
        });

        workloads.withName("held").delete();

        assertThat(workloads
                        .withLabel("kueue.x-k8s.io/queue-name", "gpuaas")
                        .list()
                        .getItems())
                .extracting(r -> r.getMetadata().getName())
                .containsExactly("held");
        assertThat(workloads.withName("held").get().getMetadata().getDeletionTimestamp())
                .as("finalizer keeps the object, marked for deletion")
                .isNotBlank();
    }

    @Test
    void shouldKeepNamespacedObjectsWhenTheirNamespaceIsDeleted(KubernetesApi api) {
        api.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("team-c")
                        .addToLabels("gpuaas.io/tenant", "team-c")
                        .endMetadata()
                        .build())
                .create();
        var queues = api.resources(GpuaasCrd.LOCAL_QUEUE).inNamespace("team-c");
        GenericKubernetesResource queue = new GenericKubernetesResourceBuilder()
                .withApiVersion(GpuaasCrd.LOCAL_QUEUE.apiVersion())
                .withKind("LocalQueue")
                .withNewMetadata()
                .withName("gpuaas")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("clusterQueue", "gpuaas-team-c"))
                .build();
        queues.resource(queue).create();
        queue.setAdditionalProperty("spec", Map.of("clusterQueue", "gpuaas-team-c-2"));

        queues.resource(queue).createOr(NonDeletingOperation::update);
        api.client().namespaces().withName("team-c").delete();

        assertThat(api.client()
                        .namespaces()
                        .withLabel("gpuaas.io/tenant", "team-c")
                        .list()
                        .getItems())
                .isEmpty();
        assertThat(queues.withName("gpuaas").get().<String>get("spec", "clusterQueue"))
                .as("no namespace controller: the object outlives its namespace")
                .isEqualTo("gpuaas-team-c-2");
    }

    @Test
    void shouldForgetObjectsButKeepCrdsWhenReset() {
        try (KubernetesApi own = KubernetesApi.start()) {
            own.resources(GpuaasCrd.COHORT)
                    .resource(new GenericKubernetesResourceBuilder()
                            .withApiVersion(GpuaasCrd.COHORT.apiVersion())
                            .withKind("Cohort")
                            .withNewMetadata()
                            .withName("gpuaas-pool")
                            .endMetadata()
                            .build())
                    .create();

            own.reset();

            assertThat(own.resources(GpuaasCrd.COHORT).list().getItems()).isEmpty();
            assertThat(own.client()
                            .apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .list()
                            .getItems())
                    .hasSize(GpuaasCrd.values().length);
            assertThat(own.client().getApiResources("kueue.x-k8s.io/v1beta2").getResources())
                    .extracting(APIResource::getName)
                    .contains("cohorts");
        }
    }

    @Test
    void shouldServeDiscoveryWhenKubectlStyleClientsAskForGroups(KubernetesClient client) {
        List<String> groups = client.getApiGroups().getGroups().stream()
                .map(APIGroup::getName)
                .toList();
        List<APIResource> kueue =
                client.getApiResources("kueue.x-k8s.io/v1beta2").getResources();

        assertThat(groups)
                .contains("kueue.x-k8s.io", "ray.io", "serving.kserve.io", "infrastructure.opendatahub.io", "apps");
        assertThat(kueue)
                .filteredOn(r -> r.getName().equals("clusterqueues"))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.getNamespaced()).isFalse();
                    assertThat(r.getShortNames()).containsExactly("cq");
                });
        assertThat(kueue).extracting(APIResource::getName).contains("workloads/status");
    }
}
