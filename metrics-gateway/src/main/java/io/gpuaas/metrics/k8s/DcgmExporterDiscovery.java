package io.gpuaas.metrics.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.metrics.StartOrder;
import io.gpuaas.metrics.scrape.ScrapeScheduler;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.util.HashSet;
import java.util.Set;

/**
 * Component {@code exporter-discovery} (service-kit's {@code InformerCache} of Pods): finds dcgm-exporter pods by label
 * and keeps the scheduler's {@code kubernetes} targets equal to the running ones. Level-based: every event recomputes
 * the whole set from the informer cache, so a missed or reordered event cannot leave a stale target behind.
 */
public final class DcgmExporterDiscovery implements ResourceEventHandler<Pod> {

    static final String ORIGIN = "kubernetes";
    static final String NAME = "exporter-discovery";
    private static final String PODS = "pods";

    private final ScrapeScheduler scheduler;
    private final int port;
    private final String path;
    /** The cache whose events this handles; set once, before the cache starts. */
    private InformerCache<Pod> cache;

    private DcgmExporterDiscovery(int port, String path, ScrapeScheduler scheduler) {
        this.scheduler = scheduler;
        this.port = port;
        this.path = path.startsWith("/") ? path : "/" + path;
    }

    /** The component: a Pod informer in {@code namespace} (all when blank) on {@code selector}. */
    public static InformerCache<Pod> cache(
            KubernetesClient client,
            String namespace,
            String selector,
            int port,
            String path,
            ScrapeScheduler scheduler,
            PrometheusRegistry registry) {
        DcgmExporterDiscovery discovery = new DcgmExporterDiscovery(port, path, scheduler);
        InformerCache<Pod> cache = InformerCache.<Pod>builder(NAME)
                .kind(PODS, () -> informer(client, namespace, selector), discovery)
                .metrics(registry)
                .startOrder(StartOrder.DISCOVERY)
                .build();
        discovery.cache = cache;
        return cache;
    }

    private static SharedIndexInformer<Pod> informer(KubernetesClient client, String namespace, String selector) {
        var pods = namespace == null || namespace.isBlank()
                ? client.pods().inAnyNamespace().withLabelSelector(selector)
                : client.pods().inNamespace(namespace).withLabelSelector(selector);
        return pods.runnableInformer(0);
    }

    @Override
    public void onAdd(Pod pod) {
        refresh();
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
        refresh();
    }

    @Override
    public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        refresh();
    }

    private synchronized void refresh() {
        Set<ScrapeTarget> targets = new HashSet<>();
        for (Pod pod : cache.list(PODS)) {
            ScrapeTarget target = targetOf(pod, port, path);
            if (target != null) {
                targets.add(target);
            }
        }
        scheduler.setTargets(ORIGIN, targets);
    }

    /** The exporter of a running pod with an IP; null while it is pending, terminating or gone. */
    static ScrapeTarget targetOf(Pod pod, int port, String path) {
        if (pod.getStatus() == null
                || !"Running".equals(pod.getStatus().getPhase())
                || pod.getStatus().getPodIP() == null
                || pod.getMetadata().getDeletionTimestamp() != null) {
            return null;
        }
        String ip = pod.getStatus().getPodIP();
        String host = ip.contains(":") ? "[" + ip + "]" : ip;
        return new ScrapeTarget(
                URI.create("http://" + host + ":" + port + path), pod.getSpec().getNodeName(), ORIGIN);
    }
}
