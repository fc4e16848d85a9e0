package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projector's view of the cluster: one informer per kind, each holding a local cache the reconciler reads
 * instead of the API server, and fanning changes out to listeners. Workloads are indexed by the ClusterQueue they
 * are admitted to and by their LocalQueue, which is what draining and the queue state look up.
 */
public final class ClusterCache implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);

    public static final String BY_CLUSTER_QUEUE = "clusterQueue";
    public static final String BY_LOCAL_QUEUE = "localQueue";
    /** LocalQueues by the ClusterQueue they point to. */
    public static final String BY_TARGET = "targetClusterQueue";

    private final KubernetesClient client;
    private final Duration resync;
    private final Map<Kind, SharedIndexInformer<GenericKubernetesResource>> informers = new EnumMap<>(Kind.class);
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();

    public ClusterCache(KubernetesClient client, Duration resync) {
        this.client = client;
        this.resync = resync;
    }

    public void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<Change> listener) {
        listeners.remove(listener);
    }

    /** Starts the informers and waits until each has listed its kind once. */
    public void start(boolean hardwareProfiles, Duration timeout) {
        List<Kind> kinds = new ArrayList<>(List.of(Kind.NAMESPACE, Kind.COHORT, Kind.CLUSTER_QUEUE, Kind.LOCAL_QUEUE,
                Kind.WORKLOAD));
        if (hardwareProfiles) {
            kinds.add(Kind.HARDWARE_PROFILE);
        }
        List<CompletableFuture<Void>> synced = new ArrayList<>();
        for (Kind kind : kinds) {
            SharedIndexInformer<GenericKubernetesResource> informer = informer(kind);
            informers.put(kind, informer);
            synced.add(informer.start().toCompletableFuture());
        }
        try {
            CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("informers did not sync within " + timeout, e);
        }
    }

    private SharedIndexInformer<GenericKubernetesResource> informer(Kind kind) {
        var operation = client.genericKubernetesResources(kind.context());
        SharedIndexInformer<GenericKubernetesResource> informer = switch (kind) {
            case NAMESPACE -> operation.withLabel(Labels.TENANT).runnableInformer(resync.toMillis());
            case HARDWARE_PROFILE, LOCAL_QUEUE, WORKLOAD -> operation.inAnyNamespace().runnableInformer(resync.toMillis());
            case COHORT, CLUSTER_QUEUE -> operation.runnableInformer(resync.toMillis());
        };
        if (kind == Kind.WORKLOAD) {
            informer.addIndexers(Map.of(
                    BY_CLUSTER_QUEUE, w -> Optional.ofNullable(Workloads.admittedClusterQueue(w)).map(List::of).orElse(List.of()),
                    BY_LOCAL_QUEUE, w -> Optional.ofNullable(Workloads.localQueueKey(w)).map(List::of).orElse(List.of())));
        }
        if (kind == Kind.LOCAL_QUEUE) {
            informer.addIndexers(Map.of(BY_TARGET,
                    q -> Optional.ofNullable(QueueStates.target(q)).map(List::of).orElse(List.of())));
        }
        informer.addEventHandler(new Fanout(kind));
        return informer;
    }

    /** The cached object, if the kind is watched and the object exists. */
    public Optional<GenericKubernetesResource> get(ObjectRef ref) {
        SharedIndexInformer<GenericKubernetesResource> informer = informers.get(ref.kind());
        if (informer == null) {
            return Optional.empty();
        }
        String key = ref.namespace() == null ? ref.name() : ref.namespace() + "/" + ref.name();
        return Optional.ofNullable(informer.getStore().getByKey(key));
    }

    public List<GenericKubernetesResource> list(Kind kind) {
        SharedIndexInformer<GenericKubernetesResource> informer = informers.get(kind);
        return informer == null ? List.of() : informer.getStore().list();
    }

    public boolean watches(Kind kind) {
        return informers.containsKey(kind);
    }

    /** Workloads indexed under {@code value} by {@link #BY_CLUSTER_QUEUE} or {@link #BY_LOCAL_QUEUE}. */
    public List<GenericKubernetesResource> workloads(String index, String value) {
        SharedIndexInformer<GenericKubernetesResource> informer = informers.get(Kind.WORKLOAD);
        return informer == null ? List.of() : informer.getIndexer().byIndex(index, value);
    }

    /** LocalQueues whose {@code spec.clusterQueue} is {@code clusterQueue}. */
    public List<GenericKubernetesResource> localQueuesOf(String clusterQueue) {
        SharedIndexInformer<GenericKubernetesResource> informer = informers.get(Kind.LOCAL_QUEUE);
        return informer == null ? List.of() : informer.getIndexer().byIndex(BY_TARGET, clusterQueue);
    }

    /** The objects of {@code kind} this projector owns. */
    public List<GenericKubernetesResource> owned(Kind kind) {
        return list(kind).stream().filter(Ownership::owned).toList();
    }

    /** Whether every informer is watching (its watch may reconnect; the cache stays readable meanwhile). */
    public boolean watching() {
        return !informers.isEmpty() && informers.values().stream().allMatch(SharedIndexInformer::isWatching);
    }

    @Override
    public void close() {
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
    }

    private final class Fanout implements ResourceEventHandler<GenericKubernetesResource> {
        private final Kind kind;

        Fanout(Kind kind) {
            this.kind = kind;
        }

        @Override
        public void onAdd(GenericKubernetesResource obj) {
            publish(new Change(kind, null, obj));
        }

        @Override
        public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
            publish(new Change(kind, oldObj, newObj));
        }

        @Override
        public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
            publish(new Change(kind, obj, null));
        }

        private void publish(Change change) {
            for (Consumer<Change> listener : listeners) {
                try {
                    listener.accept(change);
                } catch (RuntimeException e) {
                    // One broken listener must not starve the others of changes.
                    LOG.error("listener failed on {}", change.ref(), e);
                }
            }
        }
    }
}
