package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.Labels;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.quota.model.QueueStateProjection;
import io.gpuaas.quota.model.QueueStateProjection.QueueId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Which queues a change touches, and a queue's state computed from the informer caches. */
public final class QueueStates {

    private final ClusterCache cache;

    public QueueStates(ClusterCache cache) {
        this.cache = cache;
    }

    public List<QueueKey> allQueues() {
        List<QueueKey> keys = new ArrayList<>();
        cache.list(Kind.CLUSTER_QUEUE)
                .forEach(q -> keys.add(QueueKey.clusterQueue(q.getMetadata().getName())));
        cache.list(Kind.LOCAL_QUEUE)
                .forEach(q -> keys.add(QueueKey.localQueue(
                        q.getMetadata().getNamespace(), q.getMetadata().getName())));
        return keys;
    }

    public Set<QueueKey> touchedBy(Change change) {
        Set<QueueKey> keys = new LinkedHashSet<>();
        for (HasMetadata object : Stream.of(change.before(), change.after())
                .filter(o -> o != null)
                .toList()) {
            switch (object) {
                case ClusterQueue queue ->
                    keys.add(QueueKey.clusterQueue(queue.getMetadata().getName()));
                case LocalQueue queue -> {
                    keys.add(QueueKey.localQueue(
                            queue.getMetadata().getNamespace(),
                            queue.getMetadata().getName()));
                    Optional.ofNullable(target(queue)).ifPresent(cq -> keys.add(QueueKey.clusterQueue(cq)));
                }
                case Workload workload -> workloadQueues(workload, keys);
                default -> {}
            }
        }
        return keys;
    }

    private void workloadQueues(Workload workload, Set<QueueKey> keys) {
        Optional.ofNullable(Workloads.clusterQueue(workload)).ifPresent(cq -> keys.add(QueueKey.clusterQueue(cq)));
        String queueName =
                workload.getSpec() == null ? null : workload.getSpec().getQueueName();
        if (queueName != null) {
            String namespace = workload.getMetadata().getNamespace();
            keys.add(QueueKey.localQueue(namespace, queueName));
            cache.get(new ObjectRef(Kind.LOCAL_QUEUE, namespace, queueName), LocalQueue.class)
                    .map(QueueStates::target)
                    .ifPresent(cq -> keys.add(QueueKey.clusterQueue(cq)));
        }
    }

    public Optional<HasMetadata> queueObject(QueueKey key) {
        return cache.get(key.ref());
    }

    public QueueState state(QueueKey key, HasMetadata queue, Instant now) {
        return switch (queue) {
            case ClusterQueue cq -> clusterQueueState(cq, now);
            case LocalQueue lq -> localQueueState(lq, now);
            default -> throw new IllegalArgumentException("not a queue: " + key.recordKey());
        };
    }

    private QueueState clusterQueueState(ClusterQueue cq, Instant now) {
        String name = cq.getMetadata().getName();
        Map<String, Workload> workloads = new LinkedHashMap<>();
        cache.workloads(ClusterCache.BY_CLUSTER_QUEUE, name).forEach(w -> workloads.put(uidOf(w), w));
        for (LocalQueue lq : cache.localQueuesOf(name)) {
            cache.workloads(
                            ClusterCache.BY_LOCAL_QUEUE,
                            lq.getMetadata().getNamespace() + "/"
                                    + lq.getMetadata().getName())
                    .forEach(w -> workloads.putIfAbsent(uidOf(w), w));
        }
        QueueId id = new QueueId(
                QueueState.Kind.CLUSTER_QUEUE, name, null, null, cohortOf(cq), Ownership.label(cq, Labels.TENANT));
        return QueueStateProjection.project(id, NominalQuota.of(cq), snapshots(workloads.values(), now), now);
    }

    private QueueState localQueueState(LocalQueue lq, Instant now) {
        String namespace = lq.getMetadata().getNamespace();
        String target = target(lq);
        String cohort = target == null
                ? null
                : cache.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, target), ClusterQueue.class)
                        .map(QueueStates::cohortOf)
                        .orElse(null);
        String tenant = Optional.ofNullable(Ownership.label(lq, Labels.TENANT))
                .orElseGet(() -> cache.get(new ObjectRef(Kind.NAMESPACE, null, namespace))
                        .map(ns -> Ownership.label(ns, Labels.TENANT))
                        .orElse(null));
        QueueId id = new QueueId(
                QueueState.Kind.LOCAL_QUEUE, target, namespace, lq.getMetadata().getName(), cohort, tenant);
        var workloads = cache.workloads(
                ClusterCache.BY_LOCAL_QUEUE, namespace + "/" + lq.getMetadata().getName());
        return QueueStateProjection.project(id, Map.of(), snapshots(workloads, now), now);
    }

    private static List<WorkloadObserved> snapshots(java.util.Collection<Workload> workloads, Instant now) {
        return workloads.stream().map(w -> Workloads.snapshot(w, now)).toList();
    }

    private static String uidOf(Workload workload) {
        String uid = workload.getMetadata().getUid();
        return uid != null
                ? uid
                : workload.getMetadata().getNamespace() + "/"
                        + workload.getMetadata().getName();
    }

    static String target(LocalQueue localQueue) {
        return localQueue.getSpec() == null ? null : localQueue.getSpec().getClusterQueue();
    }

    private static String cohortOf(ClusterQueue queue) {
        return queue.getSpec() == null ? null : queue.getSpec().getCohortName();
    }
}
