package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.model.JsonPatch;
import io.gpuaas.local.model.Nested;
import io.gpuaas.local.model.WorkloadOwner;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small Kueue: one Workload per queued RayCluster/InferenceService (owner reference, pod sets with requests),
 * admitted in creation order when the ClusterQueue behind the LocalQueue has quota (nominal plus what the cohort
 * lends), with QuotaReserved/Admitted conditions and {@code status.admission}; Finished and deleted with its owner.
 * A changed pod count requeues a non-elastic job (new Workload) and resizes an elastic one in place. RayClusters
 * are kept suspended until admitted, as Kueue's RayCluster integration does. Level-based: each pass reads
 * everything and writes only differences.
 */
public final class KueueStandIn {

    private static final Logger LOG = LoggerFactory.getLogger(KueueStandIn.class);

    private final KubernetesClient client;

    public KueueStandIn(KubernetesClient client) {
        this.client = client;
    }

    /** One pass over the cluster; returns the uids of owners whose Workload is admitted as specified. */
    public Set<String> reconcile(List<WorkloadOwner> owners) {
        List<WorkloadOwner> queued = owners.stream().filter(o -> o.queueName().isPresent()).toList();
        Set<String> requeued = syncWorkloads(queued, listWorkloads());
        List<WorkloadView> workloads = listWorkloads();
        QueueState state = admit(workloads, requeued);
        new QueueStatusWriter(client).write(state);
        Set<String> admitted = workloads.stream().filter(w -> state.admittedNames().contains(key(w)))
                .map(w -> w.ownerUid().orElse("")).collect(Collectors.toSet());
        queued.stream().filter(o -> WorkloadOwner.RAY_CLUSTER.equals(o.kind()))
                .forEach(o -> suspend(o, !admitted.contains(o.uid())));
        return admitted;
    }

    /** Creates, resizes and finishes Workloads; returns the keys of Workloads requeued in this pass. */
    private Set<String> syncWorkloads(List<WorkloadOwner> queued, List<WorkloadView> workloads) {
        Set<String> requeued = new HashSet<>();
        Map<String, WorkloadView> byOwner = new HashMap<>();
        workloads.forEach(w -> w.ownerUid().ifPresent(uid -> byOwner.put(uid, w)));
        Set<String> ownerUids = new HashSet<>();
        for (WorkloadOwner owner : queued) {
            ownerUids.add(owner.uid());
            WorkloadView existing = byOwner.get(owner.uid());
            if (existing == null) {
                create(owner);
            } else if (!existing.podSets().equals(owner.podSets()) && !resize(owner, existing)) {
                requeued.add(key(existing));
            }
        }
        workloads.stream().filter(w -> w.ownerUid().isPresent() && !ownerUids.contains(w.ownerUid().get()))
                .forEach(this::finish);
        return requeued;
    }

    private void create(WorkloadOwner owner) {
        workloads().inNamespace(owner.namespace()).resource(WorkloadFactory.workload(owner)).create();
        LOG.info("workload {}/{} created for {}", owner.namespace(), owner.workloadName(), owner.key());
    }

    /**
     * Kueue resizes an elastic job's Workload in place (returns true); a non-elastic job whose pod counts changed is
     * evicted and gets a fresh Workload (returns false), which is left unadmitted for one pass so the job is
     * suspended and its pods deleted before it runs again, as with the real controller.
     */
    private boolean resize(WorkloadOwner owner, WorkloadView existing) {
        if (owner.elastic()) {
            workloads().inNamespace(existing.namespace()).withName(existing.name())
                    .patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/spec/podSets", WorkloadFactory.podSets(owner)));
            LOG.info("elastic workload {}/{} resized in place", existing.namespace(), existing.name());
            return true;
        }
        workloads().inNamespace(existing.namespace()).withName(existing.name()).delete();
        create(owner);
        LOG.info("workload {}/{} requeued: {} changed its pod counts", existing.namespace(), existing.name(), owner.key());
        return false;
    }

    private void finish(WorkloadView workload) {
        List<Map<String, Object>> conditions = Conditions.set(workload.conditions(), "Finished", true, "OwnerDeleted",
                "The job owning this workload was deleted", workload.resource().getMetadata().getGeneration());
        writeStatus(workload, Map.of("conditions", conditions));
        workloads().inNamespace(workload.namespace()).withName(workload.name()).delete();
        LOG.info("workload {}/{} finished: owner deleted", workload.namespace(), workload.name());
    }

    private QueueState admit(List<WorkloadView> workloads, Set<String> requeued) {
        Map<String, QueueQuota> queues = new LinkedHashMap<>();
        clusterQueues().list().getItems().forEach(q -> queues.put(q.getMetadata().getName(), QuotaReader.clusterQueue(q)));
        Map<String, List<FlavorQuota>> cohorts = new HashMap<>();
        cohorts().list().getItems().forEach(c -> cohorts.put(c.getMetadata().getName(), QuotaReader.cohort(c)));
        QuotaModel model = new QuotaModel(queues, cohorts);
        QueueState state = new QueueState(queues, model);
        List<WorkloadView> candidates = new java.util.ArrayList<>();
        for (WorkloadView workload : workloads) {
            if (requeued.contains(key(workload))) {
                continue;
            }
            if (workload.admittedAsSpecified()) {
                model.charge(workload.admission().get().clusterQueue(), workload.admission().get().podSets());
                state.admitted(workload, workload.admission().get());
            } else {
                candidates.add(workload);
            }
        }
        candidates.sort(Comparator.comparing(WorkloadView::creationTimestamp).thenComparing(WorkloadView::name));
        for (WorkloadView workload : candidates) {
            String clusterQueue = clusterQueueOf(workload);
            Admission admission = clusterQueue == null
                    ? new Admission.Pending("Inadmissible", "LocalQueue " + workload.queueName() + " doesn't exist")
                    : model.tryAdmit(clusterQueue, workload.podSets());
            switch (admission) {
                case Admission.Admitted admitted -> {
                    writeAdmitted(workload, admitted);
                    state.admitted(workload, admitted);
                }
                case Admission.Pending pending -> {
                    writePending(workload, pending);
                    state.pending(workload, clusterQueue);
                }
            }
        }
        return state;
    }

    private String clusterQueueOf(WorkloadView workload) {
        GenericKubernetesResource localQueue = localQueues().inNamespace(workload.namespace())
                .withName(workload.queueName()).get();
        return localQueue == null ? null
                : Nested.string(localQueue.getAdditionalProperties(), "spec", "clusterQueue").orElse(null);
    }

    private void writeAdmitted(WorkloadView workload, Admission.Admitted admitted) {
        Long generation = workload.resource().getMetadata().getGeneration();
        List<Map<String, Object>> conditions = Conditions.set(workload.conditions(), "QuotaReserved", true,
                "QuotaReserved", "Quota reserved in ClusterQueue " + admitted.clusterQueue(), generation);
        conditions = Conditions.set(conditions, "Admitted", true, "Admitted", "The workload is admitted", generation);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("admission", Map.of("clusterQueue", admitted.clusterQueue(),
                "podSetAssignments", admitted.podSets().stream().map(KueueStandIn::assignment).toList()));
        status.put("conditions", conditions);
        writeStatus(workload, status);
        LOG.info("workload {}/{} admitted in {}", workload.namespace(), workload.name(), admitted.clusterQueue());
    }

    private void writePending(WorkloadView workload, Admission.Pending pending) {
        Long generation = workload.resource().getMetadata().getGeneration();
        List<Map<String, Object>> conditions = Conditions.set(workload.conditions(), "QuotaReserved", false,
                pending.reason(), pending.message(), generation);
        if (workload.conditions().stream().anyMatch(c -> "Admitted".equals(c.get("type")))) {
            conditions = Conditions.set(conditions, "Admitted", false, "NoReservation", "The workload has no reservation",
                    generation);
        }
        if (conditions.equals(workload.conditions()) && workload.admission().isEmpty()) {
            return;
        }
        writeStatus(workload, Map.of("conditions", conditions));
    }

    private static Map<String, Object> assignment(PodSetAssignment assignment) {
        Map<String, Object> usage = new LinkedHashMap<>();
        assignment.resourceUsage().forEach((resource, units) -> usage.put(resource, Long.toString(units)));
        return Map.of("name", assignment.name(), "count", assignment.count(), "flavors", assignment.flavors(),
                "resourceUsage", usage);
    }

    private void suspend(WorkloadOwner owner, boolean suspend) {
        if (owner.suspended() == suspend) {
            return;
        }
        try {
            client.genericKubernetesResources(GpuaasCrd.RAY_CLUSTER.context()).inNamespace(owner.namespace())
                    .withName(owner.name()).patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/spec/suspend", suspend));
        } catch (KubernetesClientException e) {
            LOG.debug("cannot set suspend={} on {}: {}", suspend, owner.key(), e.getMessage());
        }
    }

    /** Replaces the whole status: what is not in {@code status} (a lost admission) is gone afterwards. */
    private void writeStatus(WorkloadView workload, Map<String, Object> status) {
        workloads().inNamespace(workload.namespace()).withName(workload.name()).subresource("status")
                .patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/status", status));
    }

    private List<WorkloadView> listWorkloads() {
        return workloads().inAnyNamespace().list().getItems().stream().map(WorkloadView::of).toList();
    }

    static String key(WorkloadView workload) {
        return workload.namespace() + "/" + workload.name();
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> workloads() {
        return client.genericKubernetesResources(GpuaasCrd.WORKLOAD.context());
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> localQueues() {
        return client.genericKubernetesResources(GpuaasCrd.LOCAL_QUEUE.context());
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> clusterQueues() {
        return client.genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context());
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> cohorts() {
        return client.genericKubernetesResources(GpuaasCrd.COHORT.context());
    }
}
