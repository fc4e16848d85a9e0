package io.gpuaas.quota.k8s;

import io.gpuaas.events.quota.QueueState;

/** A ClusterQueue ({@code namespace} and {@code localQueue} null) or a LocalQueue, as keyed on the quota-state topic. */
public record QueueKey(QueueState.Kind kind, String clusterQueue, String namespace, String localQueue) {

    public static QueueKey clusterQueue(String name) {
        return new QueueKey(QueueState.Kind.CLUSTER_QUEUE, name, null, null);
    }

    public static QueueKey localQueue(String namespace, String name) {
        return new QueueKey(QueueState.Kind.LOCAL_QUEUE, null, namespace, name);
    }

    /** Same as {@link QueueState#key()}. */
    public String recordKey() {
        return kind == QueueState.Kind.CLUSTER_QUEUE ? "cq/" + clusterQueue : "lq/" + namespace + "/" + localQueue;
    }

    public ObjectRef ref() {
        return kind == QueueState.Kind.CLUSTER_QUEUE
                ? new ObjectRef(Kind.CLUSTER_QUEUE, null, clusterQueue)
                : new ObjectRef(Kind.LOCAL_QUEUE, namespace, localQueue);
    }
}
