package io.gpuaas.metrics;

import io.gpuaas.events.quota.QueueState;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

/**
 * LocalQueue states as quota-projector publishes them on the quota-state topic: the queue in its tenant's namespace
 * (the tenant is named after it), under ClusterQueue {@code gpuaas-<namespace>} in the shared cohort.
 */
public final class QueueStates {

    private QueueStates() {}

    /** {@code pending} active workloads, none inadmissible or admitted, one GPU of pending demand. */
    public static QueueState localQueue(String namespace, String name, int pending) {
        return localQueue(namespace, name, pending, 0, 0, Map.of("nvidia.com/gpu", BigDecimal.ONE));
    }

    public static QueueState localQueue(
            String namespace,
            String name,
            int pending,
            int inadmissible,
            int admitted,
            Map<String, BigDecimal> pendingDemand) {
        return new QueueState(
                QueueState.Kind.LOCAL_QUEUE,
                "gpuaas-" + namespace,
                namespace,
                name,
                "gpuaas-pool",
                namespace,
                Map.of(),
                Map.of(),
                Map.of(),
                pending,
                inadmissible,
                admitted,
                pendingDemand,
                Instant.now());
    }
}
