package io.gpuaas.metrics.k8s;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.metrics.StartOrder;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Component {@code tenant-namespaces} (service-kit's {@code InformerCache} of Namespaces): keeps the TenantDirectory in
 * step with the {@code gpuaas.io/tenant} label of every Namespace that carries it.
 */
public final class TenantNamespaceWatcher implements ResourceEventHandler<Namespace> {

    static final String NAME = "tenant-namespaces";

    private final String tenantLabel;
    private final TenantDirectory directory;

    private TenantNamespaceWatcher(String tenantLabel, TenantDirectory directory) {
        this.tenantLabel = tenantLabel;
        this.directory = directory;
    }

    /** The component: a Namespace informer on {@code tenantLabel}. */
    public static InformerCache<Namespace> cache(
            KubernetesClient client, String tenantLabel, TenantDirectory directory, PrometheusRegistry registry) {
        return InformerCache.<Namespace>builder(NAME)
                .kind(
                        "namespaces",
                        () -> client.namespaces().withLabel(tenantLabel).runnableInformer(0),
                        new TenantNamespaceWatcher(tenantLabel, directory))
                .metrics(registry)
                .startOrder(StartOrder.TENANT_NAMESPACES)
                .build();
    }

    @Override
    public void onAdd(Namespace ns) {
        directory.labelled(
                ns.getMetadata().getName(), ns.getMetadata().getLabels().get(tenantLabel));
    }

    @Override
    public void onUpdate(Namespace oldNs, Namespace ns) {
        onAdd(ns);
    }

    @Override
    public void onDelete(Namespace ns, boolean deletedFinalStateUnknown) {
        directory.labelled(ns.getMetadata().getName(), null);
    }
}
