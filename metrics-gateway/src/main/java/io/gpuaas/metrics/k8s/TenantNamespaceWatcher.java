package io.gpuaas.metrics.k8s;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.gpuaas.metrics.StartOrder;
import io.gpuaas.metrics.projection.TenantDirectory;

/**
 * Component {@code tenant-namespaces}: keeps the TenantDirectory in step with the {@code gpuaas.io/tenant} label of
 * every Namespace that carries it.
 */
public final class TenantNamespaceWatcher extends InformerComponent<Namespace> {

    public TenantNamespaceWatcher(KubernetesClient client, String tenantLabel, TenantDirectory directory) {
        super(
                "tenant-namespaces",
                StartOrder.TENANT_NAMESPACES,
                client.namespaces().withLabel(tenantLabel).runnableInformer(0));
        informer.addEventHandler(new ResourceEventHandler<>() {
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
        });
    }
}
