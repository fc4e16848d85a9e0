package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pod informers (Ray workers, KServe predictors only: two label selectors keep the cache to GPU workload pods)
 * feeding a {@code namespace/pod → owner} map read by the stream threads.
 */
public final class PodOwnerIndex implements OwnerLookup, AutoCloseable {

    private final Map<String, Owner> owners = new ConcurrentHashMap<>();
    /** The same, grouped by workload: pod name → owner. Read on every evaluation, so no scan of all pods. */
    private final Map<WorkloadRef, Map<String, Owner>> byWorkload = new ConcurrentHashMap<>();

    private final List<SharedIndexInformer<Pod>> informers = new ArrayList<>();

    public PodOwnerIndex(KubernetesClient client, long resyncMillis) {
        Handler handler = new Handler();
        informers.add(client.pods()
                .inAnyNamespace()
                .withLabel(OwnerResolver.RAY_NODE_TYPE, "worker")
                .inform(handler, resyncMillis));
        informers.add(client.pods()
                .inAnyNamespace()
                .withLabel(OwnerResolver.COMPONENT, Owner.PREDICTOR)
                .inform(handler, resyncMillis));
    }

    /** Whether every informer has listed once: before that, an unknown pod may simply not be cached yet. */
    public boolean synced() {
        return informers.stream().allMatch(SharedIndexInformer::hasSynced);
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
        informers.forEach(SharedIndexInformer::close);
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
