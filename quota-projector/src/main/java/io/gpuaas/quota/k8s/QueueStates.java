package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
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
        cache.list(Kind.CLUSTER_QUEUE).forEach(q -> keys.add(QueueKey.clusterQueue(q.getMetadata().getName())));
        cache.list(Kind.LOCAL_QUEUE).forEach(q -> keys.add(QueueKey.localQueue(q.getMetadata().getNamespace(),
                q.getMetadata().getName())));
        return keys;
    }

    public Set<QueueKey> touchedBy(Change change) {
        Set<QueueKey> keys = new LinkedHashSet<>();
        for (GenericKubernetesResource object : Stream.of(change.before(), change.after()).filter(o -> o != null).toList()) {
            switch (change.kind()) {
                case CLUSTER_QUEUE -> keys.add(QueueKey.clusterQueue(object.getMetadata().getName()));
                case LOCAL_QUEUE -> {
                    keys.add(QueueKey.localQueue(object.getMetadata().getNamespace(), object.getMetadata().getName()));
                    Optional.ofNullable(target(object)).ifPresent(cq -> keys.add(QueueKey.clusterQueue(cq)));
                }
                case WORKLOAD -> workloadQueues(object, keys);
                default -> { }
            }
        }
        return keys;
    }

    private void workloadQueues(GenericKubernetesResource workload, Set<QueueKey> keys) {
        Optional.ofNullable(Fields.string(Fields.at(workload, "status", "admission"), "clusterQueue"))
                .ifPresent(cq -> keys.add(QueueKey.clusterQueue(cq)));
        String queueName = Fields.string(Fields.at(workload, "spec"), "queueName");
        if (queueName != null) {
            String namespace = workload.getMetadata().getNamespace();
            keys.add(QueueKey.localQueue(namespace, queueName));
            cache.get(new ObjectRef(Kind.LOCAL_QUEUE, namespace, queueName)).map(QueueStates::target)
                    .ifPresent(cq -> keys.add(QueueKey.clusterQueue(cq)));
        }
    }

    public Optional<GenericKubernetesResource> queueObject(QueueKey key) {
        return cache.get(key.ref());
    }

    public QueueState state(QueueKey key, GenericKubernetesResource queue, Instant now) {
        return key.kind() == QueueState.Kind.CLUSTER_QUEUE ? clusterQueueState(queue, now) : localQueueState(queue, now);
    }

    private QueueState clusterQueueState(GenericKubernetesResource cq, Instant now) {
        String name = cq.getMetadata().getName();
        Map<String, GenericKubernetesResource> workloads = new LinkedHashMap<>();
        cache.workloads(ClusterCache.BY_CLUSTER_QUEUE, name).forEach(w -> workloads.put(uidOf(w), w));
        for (GenericKubernetesResource lq : cache.localQueuesOf(name)) {
            cache.workloads(ClusterCache.BY_LOCAL_QUEUE, lq.getMetadata().getNamespace() + "/" + lq.getMetadata().getName())
                    .forEach(w -> workloads.putIfAbsent(uidOf(w), w));
        }
        QueueId id = new QueueId(QueueState.Kind.CLUSTER_QUEUE, name, null, null,
                Fields.string(Fields.at(cq, "spec"), "cohortName"), Ownership.label(cq, Labels.TENANT));
        return QueueStateProjection.project(id, NominalQuota.of(cq), snapshots(workloads.values(), now), now);
    }

    private QueueState localQueueState(GenericKubernetesResource lq, Instant now) {
        String namespace = lq.getMetadata().getNamespace();
        String target = target(lq);
        String cohort = target == null ? null : cache.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, target))
                .map(cq -> Fields.string(Fields.at(cq, "spec"), "cohortName")).orElse(null);
        String tenant = Optional.ofNullable(Ownership.label(lq, Labels.TENANT)).orElseGet(() -> cache
                .get(new ObjectRef(Kind.NAMESPACE, null, namespace)).map(ns -> Ownership.label(ns, Labels.TENANT)).orElse(null));
        QueueId id = new QueueId(QueueState.Kind.LOCAL_QUEUE, target, namespace, lq.getMetadata().getName(), cohort, tenant);
        var workloads = cache.workloads(ClusterCache.BY_LOCAL_QUEUE, namespace + "/" + lq.getMetadata().getName());
        return QueueStateProjection.project(id, Map.of(), snapshots(workloads, now), now);
    }

    private static List<WorkloadObserved> snapshots(java.util.Collection<GenericKubernetesResource> workloads, Instant now) {
        return workloads.stream().map(w -> Workloads.snapshot(w, now)).toList();
    }

    private static String uidOf(GenericKubernetesResource workload) {
        String uid = workload.getMetadata().getUid();
        return uid != null ? uid : workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName();
    }

    static String target(GenericKubernetesResource localQueue) {
        return Fields.string(Fields.at(localQueue, "spec"), "clusterQueue");
    }
}
