package io.gpuaas.quota.k8s;

/** Label and annotation keys the projector writes and selects on. */
public final class Labels {

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "gpuaas";
    public static final String TENANT = "gpuaas.io/tenant";
    /** When draining of a ClusterQueue began; the drain timeout counts from here. */
    public static final String DRAIN_STARTED = "gpuaas.io/drain-started";

    public static final String QUEUE_NAME = "kueue.x-k8s.io/queue-name";

    private Labels() {}
}
