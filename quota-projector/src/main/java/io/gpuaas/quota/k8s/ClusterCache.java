package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.events.Labels;
import io.gpuaas.kit.k8s.InformerCache;
import io.gpuaas.kit.runtime.ForwardingComponent;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projector's view of the cluster: one informer per kind, each holding a local cache the reconcilers read
 * instead of the API server, and fanning changes out to listeners. Workloads are indexed by the ClusterQueue they
 * are admitted to and by their LocalQueue, which is what draining and the queue state look up.
 *
 * <p>The informers run in service-kit's {@code InformerCache} (component {@code kube-cache}): started on the kit's
 * thread, built again after a backoff while the HardwareProfile CRD lookup cannot be answered (RECOVERING), caught up
 * once every informer has listed its kind, RECOVERING while a watch reconnects, DEAD when an informer stopped for
 * good. A listener that throws is the kit's counted handler failure; the other listeners still see the change.
 */
public final class ClusterCache implements ForwardingComponent {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);

    public static final String BY_CLUSTER_QUEUE = "clusterQueue";
    public static final String BY_LOCAL_QUEUE = "localQueue";
    /** LocalQueues by the ClusterQueue they point to. */
    public static final String BY_TARGET = "targetClusterQueue";

    private final KubernetesClient client;
    private final Duration resync;
    private final boolean hardwareProfilesWanted;
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();
    private final InformerCache<HasMetadata> informers;
    private volatile boolean hardwareProfiles;

    /**
     * @param hardwareProfiles whether to watch HardwareProfiles where their CRD is installed (looked up at start)
     * @param registry         where the kit counts handled events, handler failures and watch errors
     */
    public ClusterCache(
            KubernetesClient client, Duration resync, boolean hardwareProfiles, PrometheusRegistry registry) {
        this.client = client;
        this.resync = resync;
        this.hardwareProfilesWanted = hardwareProfiles;
        InformerCache.Builder<HasMetadata> builder = InformerCache.builder("kube-cache");
        for (Kind kind : List.of(
                Kind.NAMESPACE,
                Kind.COHORT,
                Kind.CLUSTER_QUEUE,
                Kind.LOCAL_QUEUE,
                Kind.WORKLOAD,
                Kind.HARDWARE_PROFILE,
                Kind.WORKLOAD_PRIORITY_CLASS)) {
            builder.kind(kind.name(), () -> informerIfWatched(kind), new Fanout(kind));
        }
        this.informers = builder.metrics(registry).build();
    }

    public void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<Change> listener) {
        listeners.remove(listener);
    }

    /** The informer of {@code kind}; HardwareProfiles only where wanted and their CRD is installed (looked up now). */
    private SharedIndexInformer<? extends HasMetadata> informerIfWatched(Kind kind) {
        if (kind == Kind.HARDWARE_PROFILE) {
            hardwareProfiles = hardwareProfilesWanted && hardwareProfileCrdInstalled();
            if (!hardwareProfiles) {
                return null;
            }
        }
        return informer(kind);
    }

    /** Whether the CRD exists; creating HardwareProfiles on a cluster without OpenShift AI would only fail. */
    private boolean hardwareProfileCrdInstalled() {
        try {
            boolean installed = client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(Kind.HARDWARE_PROFILE.crdName())
                            .get()
                    != null;
            LOG.info("HardwareProfile CRD {}", installed ? "installed: profiles are rendered" : "absent: no profiles");
            return installed;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 0 || e.getCode() >= 500) {
                throw e; // the API server is not answering: try again rather than decide without it
            }
            LOG.info("cannot read CRDs ({}); HardwareProfiles disabled", e.getCode());
            return false;
        }
    }

    /** Whether every informer has listed its kind once. */
    public boolean synced() {
        return informers.synced();
    }

    /**
     * Whether the informer of {@code kind} has listed its kind and is watching now (neither reconnecting nor stopped
     * for good), whatever the other informers do: a change to {@code kind} made now reaches the listeners.
     */
    public boolean watching(Kind kind) {
        return synced() && informers.watching(kind.name());
    }

    /** The informer of {@code kind}, null before the sync: for tests that break one watch. */
    SharedIndexInformer<? extends HasMetadata> informerOf(Kind kind) {
        return informers.informer(kind.name());
    }

    /** Whether HardwareProfiles are watched and rendered (their CRD was installed at sync). */
    public boolean hardwareProfiles() {
        return hardwareProfiles;
    }

    private SharedIndexInformer<? extends HasMetadata> informer(Kind kind) {
        SharedIndexInformer<? extends HasMetadata> informer =
                switch (kind) {
                    case NAMESPACE ->
                        client.namespaces().withLabel(Labels.TENANT).runnableInformer(resync.toMillis());
                    case HARDWARE_PROFILE, LOCAL_QUEUE, WORKLOAD ->
                        client.resources(kind.type()).inAnyNamespace().runnableInformer(resync.toMillis());
                    case COHORT, CLUSTER_QUEUE -> client.resources(kind.type()).runnableInformer(resync.toMillis());
                    case WORKLOAD_PRIORITY_CLASS ->
                        client.resources(kind.type()).runnableInformer(resync.toMillis());
                };
        if (kind == Kind.WORKLOAD) {
            index(
                    informer,
                    Workload.class,
                    Map.of(
                            BY_CLUSTER_QUEUE,
                            Workloads::admittedClusterQueue,
                            BY_LOCAL_QUEUE,
                            Workloads::localQueueKey));
        }
        if (kind == Kind.LOCAL_QUEUE) {
            index(informer, LocalQueue.class, Map.of(BY_TARGET, QueueStates::target));
        }
        return informer;
    }

    /** Adds one index per entry: the object's key under it, none when the function gives null. */
    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> void index(
            SharedIndexInformer<? extends HasMetadata> informer, Class<T> type, Map<String, Function<T, String>> keys) {
        Map<String, Function<T, List<String>>> indexers = new java.util.HashMap<>();
        keys.forEach((name, key) -> indexers.put(
                name, o -> Optional.ofNullable(key.apply(o)).map(List::of).orElse(List.of())));
        ((SharedIndexInformer<T>) informer).addIndexers(indexers);
    }

    /** The cached object, if the kind is watched and the object exists. */
    public Optional<HasMetadata> get(ObjectRef ref) {
        String key = ref.namespace() == null ? ref.name() : ref.namespace() + "/" + ref.name();
        return informers.get(ref.kind().name(), key);
    }

    /** The cached object as its typed class. */
    public <T extends HasMetadata> Optional<T> get(ObjectRef ref, Class<T> type) {
        return get(ref).filter(type::isInstance).map(type::cast);
    }

    public List<HasMetadata> list(Kind kind) {
        return informers.list(kind.name());
    }

    /** Every cached object of {@code type}'s kind. */
    public <T extends HasMetadata> List<T> list(Kind kind, Class<T> type) {
        return list(kind).stream().filter(type::isInstance).map(type::cast).toList();
    }

    public boolean watches(Kind kind) {
        return informers.watches(kind.name());
    }

    /** Workloads indexed under {@code value} by {@link #BY_CLUSTER_QUEUE} or {@link #BY_LOCAL_QUEUE}. */
    public List<Workload> workloads(String index, String value) {
        return indexed(Kind.WORKLOAD, Workload.class, index, value);
    }

    /** LocalQueues whose {@code spec.clusterQueue} is {@code clusterQueue}. */
    public List<LocalQueue> localQueuesOf(String clusterQueue) {
        return indexed(Kind.LOCAL_QUEUE, LocalQueue.class, BY_TARGET, clusterQueue);
    }

    private <T extends HasMetadata> List<T> indexed(Kind kind, Class<T> type, String index, String value) {
        return informers.byIndex(kind.name(), index, value).stream()
                .map(type::cast)
                .toList();
    }

    /** The objects of {@code kind} this projector owns. */
    public List<HasMetadata> owned(Kind kind) {
        return list(kind).stream().filter(Ownership::owned).toList();
    }

    @Override
    public ServiceComponent component() {
        return informers;
    }

    private final class Fanout implements ResourceEventHandler<HasMetadata> {
        private final Kind kind;

        Fanout(Kind kind) {
            this.kind = kind;
        }

        @Override
        public void onAdd(HasMetadata obj) {
            publish(new Change(kind, null, obj));
        }

        @Override
        public void onUpdate(HasMetadata oldObj, HasMetadata newObj) {
            publish(new Change(kind, oldObj, newObj));
        }

        @Override
        public void onDelete(HasMetadata obj, boolean deletedFinalStateUnknown) {
            publish(new Change(kind, obj, null));
        }

        /** Every listener sees the change; the first failure goes to the kit, which counts and reports it. */
        private void publish(Change change) {
            RuntimeException failed = null;
            for (Consumer<Change> listener : listeners) {
                try {
                    listener.accept(change);
                } catch (RuntimeException e) {
                    // One broken listener must not starve the others of changes.
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
        }
    }
}
