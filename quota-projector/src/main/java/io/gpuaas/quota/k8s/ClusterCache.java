package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.events.Labels;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projector's view of the cluster: one informer per kind, each holding a local cache the reconcilers read
 * instead of the API server, and fanning changes out to listeners. Workloads are indexed by the ClusterQueue they
 * are admitted to and by their LocalQueue, which is what draining and the queue state look up.
 *
 * <p>As a component it syncs on a thread of its own and retries until every informer has listed its kind once
 * (STARTING, then RECOVERING between attempts); it is caught up from then on. An informer that is not watching
 * (reconnecting) makes it RECOVERING; one that stopped for good (fabric8 gave up on it) makes it DEAD, since only a
 * new process brings a fresh informer.
 */
public final class ClusterCache implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RETRY = Duration.ofSeconds(2);

    public static final String BY_CLUSTER_QUEUE = "clusterQueue";
    public static final String BY_LOCAL_QUEUE = "localQueue";
    /** LocalQueues by the ClusterQueue they point to. */
    public static final String BY_TARGET = "targetClusterQueue";

    private final KubernetesClient client;
    private final Duration resync;
    private final boolean hardwareProfilesWanted;
    private final Map<Kind, SharedIndexInformer<? extends HasMetadata>> informers = new ConcurrentHashMap<>();
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean hardwareProfiles;
    private volatile String failure = "not started";
    private volatile int attempts;
    private Thread starter;

    /**
     * @param hardwareProfiles whether to watch HardwareProfiles where their CRD is installed (looked up at start)
     */
    public ClusterCache(KubernetesClient client, Duration resync, boolean hardwareProfiles) {
        this.client = client;
        this.resync = resync;
        this.hardwareProfilesWanted = hardwareProfiles;
    }

    public void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<Change> listener) {
        listeners.remove(listener);
    }

    @Override
    public String name() {
        return "kube-cache";
    }

    @Override
    public synchronized void start() {
        if (starter == null && stopping.getCount() > 0) {
            starter = Thread.ofPlatform().daemon().name("kube-cache-sync").start(this::syncUntilDone);
        }
    }

    private void syncUntilDone() {
        while (stopping.getCount() > 0) {
            try {
                sync();
                synced.countDown();
                LOG.info("informers synced: {}", informers.keySet());
                return;
            } catch (RuntimeException e) {
                attempts++;
                failure = e.getMessage();
                LOG.warn("informers did not sync ({}); retrying in {}", e.getMessage(), RETRY);
                try {
                    if (stopping.await(RETRY.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** Starts the informers and waits until each has listed its kind once; closes them again if that fails. */
    private synchronized void sync() {
        hardwareProfiles = hardwareProfilesWanted && hardwareProfileCrdInstalled();
        List<Kind> kinds = new ArrayList<>(
                List.of(Kind.NAMESPACE, Kind.COHORT, Kind.CLUSTER_QUEUE, Kind.LOCAL_QUEUE, Kind.WORKLOAD));
        if (hardwareProfiles) {
            kinds.add(Kind.HARDWARE_PROFILE);
        }
        List<CompletableFuture<Void>> started = new ArrayList<>();
        for (Kind kind : kinds) {
            SharedIndexInformer<? extends HasMetadata> informer = informer(kind);
            informers.put(kind, informer);
            started.add(informer.start().toCompletableFuture());
        }
        try {
            CompletableFuture.allOf(started.toArray(CompletableFuture[]::new))
                    .get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            closeInformers();
            throw new IllegalStateException("informers did not sync within " + SYNC_TIMEOUT, e);
        }
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
        return synced.getCount() == 0;
    }

    /** Waits until {@link #synced()}; false on timeout. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        return synced.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Whether the informer of {@code kind} has listed its kind and is watching now (neither reconnecting nor stopped
     * for good), whatever the other informers do: a change to {@code kind} made now reaches the listeners.
     */
    public boolean watching(Kind kind) {
        SharedIndexInformer<? extends HasMetadata> informer = informers.get(kind);
        return synced()
                && stopping.getCount() > 0
                && informer != null
                && informer.isWatching()
                && !informer.stopped().toCompletableFuture().isDone();
    }

    /** The informer of {@code kind}, null before the sync: for tests that break one watch. */
    SharedIndexInformer<? extends HasMetadata> informerOf(Kind kind) {
        return informers.get(kind);
    }

    /** Whether HardwareProfiles are watched and rendered (their CRD was installed at sync). */
    public boolean hardwareProfiles() {
        return hardwareProfiles;
    }

    @Override
    public ComponentHealth health() {
        if (stopping.getCount() == 0) {
            return new ComponentHealth(State.STOPPED, synced(), "stopped", attempts);
        }
        if (!synced()) {
            return new ComponentHealth(
                    attempts == 0 ? State.STARTING : State.RECOVERING,
                    false,
                    attempts == 0
                            ? "listing " + (informers.isEmpty() ? "kinds" : informers.keySet())
                            : "sync failed " + attempts + "x: " + failure,
                    attempts);
        }
        List<Kind> stopped = informers.entrySet().stream()
                .filter(e -> e.getValue().stopped().toCompletableFuture().isDone())
                .map(Map.Entry::getKey)
                .toList();
        if (!stopped.isEmpty()) {
            return new ComponentHealth(State.DEAD, true, "informers stopped: " + stopped, attempts);
        }
        List<Kind> reconnecting = informers.entrySet().stream()
                .filter(e -> !e.getValue().isWatching())
                .map(Map.Entry::getKey)
                .toList();
        return reconnecting.isEmpty()
                ? new ComponentHealth(State.RUNNING, true, "watching " + informers.keySet(), attempts)
                : new ComponentHealth(State.RECOVERING, true, "watches reconnecting: " + reconnecting, attempts);
    }

    @Override
    public void stop(Duration grace) {
        stopping.countDown();
        Thread thread;
        synchronized (this) {
            thread = starter;
        }
        if (thread != null) {
            try {
                thread.join(grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeInformers();
    }

    private synchronized void closeInformers() {
        informers.values().forEach(SharedIndexInformer::close);
        informers.clear();
    }

    private SharedIndexInformer<? extends HasMetadata> informer(Kind kind) {
        SharedIndexInformer<? extends HasMetadata> informer =
                switch (kind) {
                    case NAMESPACE ->
                        client.namespaces().withLabel(Labels.TENANT).runnableInformer(resync.toMillis());
                    case HARDWARE_PROFILE, LOCAL_QUEUE, WORKLOAD ->
                        client.resources(kind.type()).inAnyNamespace().runnableInformer(resync.toMillis());
                    case COHORT, CLUSTER_QUEUE -> client.resources(kind.type()).runnableInformer(resync.toMillis());
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
        informer.addEventHandler(new Fanout<>(kind));
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
        SharedIndexInformer<? extends HasMetadata> informer = informers.get(ref.kind());
        if (informer == null) {
            return Optional.empty();
        }
        String key = ref.namespace() == null ? ref.name() : ref.namespace() + "/" + ref.name();
        return Optional.ofNullable(informer.getStore().getByKey(key));
    }

    /** The cached object as its typed class. */
    public <T extends HasMetadata> Optional<T> get(ObjectRef ref, Class<T> type) {
        return get(ref).filter(type::isInstance).map(type::cast);
    }

    public List<HasMetadata> list(Kind kind) {
        SharedIndexInformer<? extends HasMetadata> informer = informers.get(kind);
        return informer == null ? List.of() : List.copyOf(informer.getStore().list());
    }

    /** Every cached object of {@code type}'s kind. */
    public <T extends HasMetadata> List<T> list(Kind kind, Class<T> type) {
        return list(kind).stream().filter(type::isInstance).map(type::cast).toList();
    }

    public boolean watches(Kind kind) {
        return informers.containsKey(kind);
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
        SharedIndexInformer<? extends HasMetadata> informer = informers.get(kind);
        return informer == null
                ? List.of()
                : informer.getIndexer().byIndex(index, value).stream()
                        .map(type::cast)
                        .toList();
    }

    /** The objects of {@code kind} this projector owns. */
    public List<HasMetadata> owned(Kind kind) {
        return list(kind).stream().filter(Ownership::owned).toList();
    }

    private final class Fanout<T extends HasMetadata> implements ResourceEventHandler<T> {
        private final Kind kind;

        Fanout(Kind kind) {
            this.kind = kind;
        }

        @Override
        public void onAdd(T obj) {
            publish(new Change(kind, null, obj));
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            publish(new Change(kind, oldObj, newObj));
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
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
