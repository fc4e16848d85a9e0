package io.gpuaas.metrics.projection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Namespace to tenant. The Namespace label {@code gpuaas.io/tenant} (from the informer) wins; configuration
 * is the fallback for clusters where namespaces are not labelled; the tenant named on a LocalQueue's
 * QueueState is the last resort, so the mapping also works without any Kubernetes access.
 */
public final class TenantDirectory {

    private final Map<String, String> configured;
    private final Map<String, String> fromKubernetes = new ConcurrentHashMap<>();
    private final Map<String, String> fromQueues = new ConcurrentHashMap<>();

    public TenantDirectory(Map<String, String> configured) {
        this.configured = Map.copyOf(configured);
    }

    /** The tenant owning {@code namespace}, or null when nobody claims it (its GPUs count for no tenant). */
    public String tenantOf(String namespace) {
        if (namespace == null) {
            return null;
        }
        String tenant = fromKubernetes.get(namespace);
        if (tenant == null) {
            tenant = configured.get(namespace);
        }
        return tenant != null ? tenant : fromQueues.get(namespace);
    }

    /** Records the label of a Namespace; a null tenant (label removed, namespace deleted) forgets it. */
    public void labelled(String namespace, String tenant) {
        if (tenant == null || tenant.isBlank()) {
            fromKubernetes.remove(namespace);
        } else {
            fromKubernetes.put(namespace, tenant);
        }
    }

    public void queueOwner(String namespace, String tenant) {
        if (namespace != null && tenant != null && !tenant.isBlank()) {
            fromQueues.put(namespace, tenant);
        }
    }
}
