package io.gpuaas.local.kueue;

import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What one admission pass found, per ClusterQueue and LocalQueue, for their status. */
final class QueueState {

    private final Map<String, QueueQuota> queues;
    private final QuotaModel model;
    private final Set<String> admittedNames = new HashSet<>();
    private final Map<String, Counts> clusterQueues = new HashMap<>();
    private final Map<String, Counts> localQueues = new HashMap<>();

    /** Workload counts and usage (flavor → resource → units) of one queue. */
    static final class Counts {
        int admitted;
        int pending;
        final Map<String, Map<String, Long>> usage = new TreeMap<>();
    }

    QueueState(Map<String, QueueQuota> queues, QuotaModel model) {
        this.queues = queues;
        this.model = model;
    }

    void admitted(WorkloadView workload, Admission.Admitted admission) {
        admittedNames.add(KueueStandIn.key(workload));
        Counts cq = clusterQueues.computeIfAbsent(admission.clusterQueue(), q -> new Counts());
        Counts lq = localQueues.computeIfAbsent(workload.namespace() + "/" + workload.queueName(), q -> new Counts());
        cq.admitted++;
        lq.admitted++;
        for (PodSetAssignment assignment : admission.podSets()) {
            assignment.resourceUsage().forEach((resource, units) -> lq.usage
                    .computeIfAbsent(assignment.flavors().get(resource), f -> new TreeMap<>())
                    .merge(resource, units, Long::sum));
        }
    }

    /** Undoes {@link #admitted} for a Workload preempted in this pass; it is pending again. */
    void preempted(WorkloadView workload, Admission.Admitted admission) {
        admittedNames.remove(KueueStandIn.key(workload));
        clusterQueues.computeIfAbsent(admission.clusterQueue(), q -> new Counts()).admitted--;
        Counts lq = localQueues.computeIfAbsent(workload.namespace() + "/" + workload.queueName(), q -> new Counts());
        lq.admitted--;
        for (PodSetAssignment assignment : admission.podSets()) {
            assignment.resourceUsage().forEach((resource, units) -> lq.usage
                    .computeIfAbsent(assignment.flavors().get(resource), f -> new TreeMap<>())
                    .merge(resource, -units, Long::sum));
        }
        pending(workload, admission.clusterQueue());
    }

    void pending(WorkloadView workload, String clusterQueue) {
        if (clusterQueue != null) {
            clusterQueues.computeIfAbsent(clusterQueue, q -> new Counts()).pending++;
        }
        localQueues.computeIfAbsent(workload.namespace() + "/" + workload.queueName(), q -> new Counts()).pending++;
    }

    Set<String> admittedNames() {
        return admittedNames;
    }

    Map<String, QueueQuota> queues() {
        return queues;
    }

    QuotaModel model() {
        return model;
    }

    Counts clusterQueue(String name) {
        return clusterQueues.getOrDefault(name, new Counts());
    }

    Counts localQueue(String namespace, String name) {
        return localQueues.getOrDefault(namespace + "/" + name, new Counts());
    }
}
