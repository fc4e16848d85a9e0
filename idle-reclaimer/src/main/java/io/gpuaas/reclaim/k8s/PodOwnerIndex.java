package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.kit.runtime.ForwardingComponent;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pod informers (Ray workers, KServe predictors only: two label selectors keep the cache to GPU workload pods)
 * feeding a {@code namespace/pod → owner} map read by the stream threads. Component {@code pod-owners}: the informers
 * run in service-kit's {@code InformerCache} (ready once both have listed and while they watch; list and watch errors
 * retried; a handler that throws counted and reported, the other pods still indexed).
 */
public final class PodOwnerIndex implements OwnerLookup, ForwardingComponent, AutoCloseable {

    private final Map<String, Owner> owners = new ConcurrentHashMap<>();
    /** The same, grouped by workload: pod name → owner. Read on every evaluation, so no scan of all pods. */
    private final Map<WorkloadRef, Map<String, Owner>> byWorkload = new ConcurrentHashMap<>();

    private final InformerCache<Pod> informers;

    public PodOwnerIndex(KubernetesClient client, long resyncMillis) {
        this(client, resyncMillis, new PrometheusRegistry());
    }

    public PodOwnerIndex(KubernetesClient client, long resyncMillis, PrometheusRegistry registry) {
        Handler handler = new Handler();
        this.informers = InformerCache.<Pod>builder("pod-owners")
                .kind(
                        "ray-workers",
                        () -> client.pods()
                                .inAnyNamespace()
                                .withLabel(OwnerResolver.RAY_NODE_TYPE, "worker")
                                .runnableInformer(resyncMillis),
                        handler)
                .kind(
                        "kserve-predictors",
                        () -> client.pods()
                                .inAnyNamespace()
                                .withLabel(OwnerResolver.COMPONENT, Owner.PREDICTOR)
                                .runnableInformer(resyncMillis),
                        handler)
                .metrics(registry)
                .build();
    }

    /** Whether every informer has listed once: before that, an unknown pod may simply not be cached yet. */
    public boolean synced() {
        return informers.synced();
    }

    /** Whether both informers hold a live watch. */
    public boolean watching() {
        return informers.watching("ray-workers") && informers.watching("kserve-predictors");
    }

    @Override
    public ServiceComponent component() {
        return informers;
    }

    @Override
    public Optional<Owner> ownerOf(String namespace, String pod) {
        return Optional.ofNullable(owners.get(namespace + "/" + pod));
    }

    @Override
    public List<String> podsOf(WorkloadRef workload, String group) {
        List<String> pods = new ArrayList<>();
        byWorkload.getOrDefault(workload, Map.of()).forEach((pod, owner) -> {
            if (owner.group().equals(group)) {
                pods.add(pod);
            }
        });
        pods.sort(null);
        return pods;
    }

    @Override
    public Map<String, Integer> gpusPerPod(WorkloadRef workload) {
        Map<String, Integer> pods = new HashMap<>();
        byWorkload.getOrDefault(workload, Map.of()).forEach((pod, owner) -> pods.put(pod, owner.gpus()));
        return pods;
    }

    private synchronized void put(String namespace, String pod, Owner owner) {
        Owner previous = owners.put(namespace + "/" + pod, owner);
        if (previous != null && !previous.workload().equals(owner.workload())) {
            removeFromWorkload(previous.workload(), pod);
        }
        byWorkload
                .computeIfAbsent(owner.workload(), w -> new ConcurrentHashMap<>())
                .put(pod, owner);
    }

    private synchronized void remove(String namespace, String pod) {
        Owner previous = owners.remove(namespace + "/" + pod);
        if (previous != null) {
            removeFromWorkload(previous.workload(), pod);
        }
    }

    private void removeFromWorkload(WorkloadRef workload, String pod) {
        byWorkload.computeIfPresent(workload, (w, pods) -> {
            pods.remove(pod);
            return pods.isEmpty() ? null : pods;
        });
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(2));
    }

    private final class Handler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            String ns = pod.getMetadata().getNamespace();
            String name = pod.getMetadata().getName();
            OwnerResolver.ownerOf(pod).ifPresentOrElse(o -> put(ns, name, o), () -> remove(ns, name));
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            onAdd(newPod);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            remove(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        }
    }
}
