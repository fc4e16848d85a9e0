package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadStatus;
import io.gpuaas.kube.kueue.v1beta2.workloadstatus.admission.PodSetAssignments;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.model.JsonPatch;
import io.gpuaas.local.model.WorkloadOwner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /**
     * What the shipped Kueue Configuration excludes: nothing. gpuaas leaves Kueue's Configuration alone and covers cpu
     * and memory in its ClusterQueues instead (deploy/README.md, "Kueue").
     */
    public static final List<String> SHIPPED_EXCLUDED_RESOURCE_PREFIXES = List.of();

    private final KubernetesClient client;
    private final List<String> excludedResourcePrefixes;

    /**
     * @param excludedResourcePrefixes Kueue's {@code resources.excludeResourcePrefixes}: requests of these resources
     *                                 are not counted, so no ClusterQueue has to cover them. The shipped
     *                                 configuration excludes nothing (deploy/README.md, "Kueue")
     */
    public KueueStandIn(KubernetesClient client, List<String> excludedResourcePrefixes) {
        this.client = client;
        this.excludedResourcePrefixes = List.copyOf(excludedResourcePrefixes);
    }

    /** One pass over the cluster; returns the uids of owners whose Workload is admitted as specified. */
    public Set<String> reconcile(List<WorkloadOwner> owners) {
        List<WorkloadOwner> queued =
                owners.stream().filter(o -> o.queueName().isPresent()).toList();
        PriorityClasses priorities = PriorityClasses.read(client);
        Set<String> requeued = syncWorkloads(queued, listWorkloads(priorities), priorities);
        List<WorkloadView> workloads = listWorkloads(priorities);
        QueueState state = admit(workloads, requeued);
        new QueueStatusWriter(client).write(state);
        Set<String> admitted = workloads.stream()
                .filter(w -> state.admittedNames().contains(key(w)))
                .map(w -> w.ownerUid().orElse(""))
                .collect(Collectors.toSet());
        queued.stream()
                .filter(o -> WorkloadOwner.RAY_CLUSTER.equals(o.kind()))
                .forEach(o -> suspend(o, !admitted.contains(o.uid())));
        return admitted;
    }

    /** Creates, resizes and finishes Workloads; returns the keys of Workloads requeued in this pass. */
    private Set<String> syncWorkloads(
            List<WorkloadOwner> queued, List<WorkloadView> workloads, PriorityClasses priorities) {
        Set<String> requeued = new HashSet<>();
        Map<String, WorkloadView> byOwner = new HashMap<>();
        workloads.forEach(w -> w.ownerUid().ifPresent(uid -> byOwner.put(uid, w)));
        Set<String> ownerUids = new HashSet<>();
        for (WorkloadOwner owner : queued) {
            ownerUids.add(owner.uid());
            WorkloadView existing = byOwner.get(owner.uid());
            if (existing == null) {
                create(owner, priorities);
            } else if (!existing.podSets().equals(owner.podSets()) && !resize(owner, existing, priorities)) {
                requeued.add(key(existing));
            }
        }
        workloads.stream()
                .filter(w -> w.ownerUid().isPresent()
                        && !ownerUids.contains(w.ownerUid().get()))
                .forEach(this::finish);
        return requeued;
    }

    private void create(WorkloadOwner owner, PriorityClasses priorities) {
        Optional<PriorityClasses.Named> priorityClass = owner.priorityClass().flatMap(priorities::named);
        if (owner.priorityClass().isPresent() && priorityClass.isEmpty()) {
            // Kueue's job reconciler fails to build the Workload and the job stays suspended until the class exists.
            LOG.info(
                    "no workload for {}: WorkloadPriorityClass {} not found",
                    owner.key(),
                    owner.priorityClass().get());
            return;
        }
        workloads()
                .inNamespace(owner.namespace())
                .resource(WorkloadFactory.workload(owner, priorityClass))
                .create();
        LOG.info("workload {}/{} created for {}", owner.namespace(), owner.workloadName(), owner.key());
    }

    /**
     * Kueue resizes an elastic job's Workload in place (returns true); a non-elastic job whose pod counts changed is
     * evicted and gets a fresh Workload (returns false), which is left unadmitted for one pass so the job is
     * suspended and its pods deleted before it runs again, as with the real controller.
     */
    private boolean resize(WorkloadOwner owner, WorkloadView existing, PriorityClasses priorities) {
        if (owner.elastic()) {
            workloads()
                    .inNamespace(existing.namespace())
                    .withName(existing.name())
                    .patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/spec/podSets", WorkloadFactory.podSets(owner)));
            LOG.info("elastic workload {}/{} resized in place", existing.namespace(), existing.name());
            return true;
        }
        workloads().inNamespace(existing.namespace()).withName(existing.name()).delete();
        create(owner, priorities);
        LOG.info(
                "workload {}/{} requeued: {} changed its pod counts",
                existing.namespace(),
                existing.name(),
                owner.key());
        return false;
    }

    private void finish(WorkloadView workload) {
        WorkloadStatus status = new WorkloadStatus();
        status.setConditions(Conditions.set(
                workload.conditions(),
                "Finished",
                true,
                "OwnerDeleted",
                "The job owning this workload was deleted",
                workload.resource().getMetadata().getGeneration()));
        writeStatus(workload, status);
        workloads().inNamespace(workload.namespace()).withName(workload.name()).delete();
        LOG.info("workload {}/{} finished: owner deleted", workload.namespace(), workload.name());
    }

    private QueueState admit(List<WorkloadView> workloads, Set<String> requeued) {
        Map<String, QueueQuota> queues = new LinkedHashMap<>();
        client.resources(ClusterQueue.class)
                .list()
                .getItems()
                .forEach(q -> queues.put(q.getMetadata().getName(), QuotaReader.clusterQueue(q)));
        Map<String, List<FlavorQuota>> cohorts = new HashMap<>();
        client.resources(Cohort.class)
                .list()
                .getItems()
                .forEach(c -> cohorts.put(c.getMetadata().getName(), QuotaReader.cohort(c)));
        QuotaModel model = new QuotaModel(queues, cohorts);
        QueueState state = new QueueState(queues, model);
        List<WorkloadView> candidates = new ArrayList<>();
        Map<String, WorkloadView> running = new LinkedHashMap<>();
        for (WorkloadView workload : workloads) {
            if (requeued.contains(key(workload))) {
                continue;
            }
            if (workload.admittedAsSpecified()) {
                model.charge(
                        workload.admission().get().clusterQueue(),
                        workload.admission().get().podSets());
                state.admitted(workload, workload.admission().get());
                running.put(key(workload), workload);
            } else {
                candidates.add(workload);
            }
        }
        // Kueue's queues order by priority, then by when the Workload was (re)queued.
        candidates.sort(Comparator.comparingInt(WorkloadView::priority)
                .reversed()
                .thenComparing(WorkloadView::queueOrderTime)
                .thenComparing(WorkloadView::name));
        Preemptions preemptions = new Preemptions(model, state, new Evictions(client));
        for (WorkloadView workload : candidates) {
            String clusterQueue = clusterQueueOf(workload);
            Admission admission = clusterQueue == null
                    ? new Admission.Pending("Inadmissible", "LocalQueue " + workload.queueName() + " doesn't exist")
                    : model.tryAdmit(clusterQueue, workload.requests());
            if (admission instanceof Admission.Pending pending && "Pending".equals(pending.reason())) {
                admission =
                        preemptions.preemptFor(workload, clusterQueue, running).orElse(admission);
            }
            switch (admission) {
                case Admission.Admitted admitted -> {
                    writeAdmitted(workload, admitted);
                    state.admitted(workload, admitted);
                    running.put(key(workload), withAdmission(workload, admitted));
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
        LocalQueue localQueue = client.resources(LocalQueue.class)
                .inNamespace(workload.namespace())
                .withName(workload.queueName())
                .get();
        return localQueue == null || localQueue.getSpec() == null
                ? null
                : localQueue.getSpec().getClusterQueue();
    }

    private void writeAdmitted(WorkloadView workload, Admission.Admitted admitted) {
        Long generation = workload.resource().getMetadata().getGeneration();
        List<Condition> conditions = Conditions.set(
                workload.conditions(),
                "QuotaReserved",
                true,
                "QuotaReserved",
                "Quota reserved in ClusterQueue " + admitted.clusterQueue(),
                generation);
        conditions = Conditions.set(conditions, "Admitted", true, "Admitted", "The workload is admitted", generation);
        conditions = Evictions.readmitted(conditions, generation);
        var admission = new io.gpuaas.kube.kueue.v1beta2.workloadstatus.Admission();
        admission.setClusterQueue(admitted.clusterQueue());
        admission.setPodSetAssignments(
                admitted.podSets().stream().map(KueueStandIn::assignment).toList());
        WorkloadStatus status = new WorkloadStatus();
        status.setAdmission(admission);
        status.setConditions(conditions);
        writeStatus(workload, status);
        LOG.info("workload {}/{} admitted in {}", workload.namespace(), workload.name(), admitted.clusterQueue());
    }

    private void writePending(WorkloadView workload, Admission.Pending pending) {
        Long generation = workload.resource().getMetadata().getGeneration();
        List<Condition> conditions = Conditions.set(
                workload.conditions(), "QuotaReserved", false, pending.reason(), pending.message(), generation);
        if (workload.conditions().stream().anyMatch(c -> "Admitted".equals(c.getType()))) {
            conditions = Conditions.set(
                    conditions, "Admitted", false, "NoReservation", "The workload has no reservation", generation);
        }
        if (conditions.equals(workload.conditions()) && workload.admission().isEmpty()) {
            return;
        }
        WorkloadStatus status = new WorkloadStatus();
        status.setConditions(conditions);
        writeStatus(workload, status);
    }

    private static PodSetAssignments assignment(PodSetAssignment assignment) {
        Map<String, IntOrString> usage = new LinkedHashMap<>();
        // Usage is written as strings, as Kueue serialises resource.Quantity.
        assignment
                .resourceUsage()
                .forEach((resource, units) ->
                        usage.put(resource, new IntOrString(ResourceUnits.format(resource, units))));
        PodSetAssignments result = new PodSetAssignments();
        result.setName(assignment.name());
        result.setCount(assignment.count());
        result.setFlavors(new LinkedHashMap<>(assignment.flavors()));
        result.setResourceUsage(usage);
        return result;
    }

    private void suspend(WorkloadOwner owner, boolean suspend) {
        if (owner.suspended() == suspend) {
            return;
        }
        try {
            client.resources(RayCluster.class)
                    .inNamespace(owner.namespace())
                    .withName(owner.name())
                    .patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/spec/suspend", suspend));
        } catch (KubernetesClientException e) {
            LOG.debug("cannot set suspend={} on {}: {}", suspend, owner.key(), e.getMessage());
        }
    }

    /** Replaces the whole status: what is not in {@code status} (a lost admission) is gone afterwards. */
    private void writeStatus(WorkloadView workload, WorkloadStatus status) {
        workloads()
                .inNamespace(workload.namespace())
                .withName(workload.name())
                .subresource("status")
                .patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/status", status));
    }

    private List<WorkloadView> listWorkloads(PriorityClasses priorities) {
        return workloads().inAnyNamespace().list().getItems().stream()
                .map(w -> WorkloadView.of(w, excludedResourcePrefixes, priorities))
                .toList();
    }

    // The view of a Workload admitted in this pass, as a later preemptor of the same pass sees it.
    private static WorkloadView withAdmission(WorkloadView workload, Admission.Admitted admitted) {
        return new WorkloadView(
                workload.resource(),
                workload.queueName(),
                workload.podSets(),
                workload.requests(),
                workload.ownerUid(),
                Optional.of(admitted),
                workload.conditions(),
                workload.priority());
    }

    static String key(WorkloadView workload) {
        return workload.namespace() + "/" + workload.name();
    }

    private MixedOperation<Workload, KubernetesResourceList<Workload>, Resource<Workload>> workloads() {
        return client.resources(Workload.class);
    }
}
