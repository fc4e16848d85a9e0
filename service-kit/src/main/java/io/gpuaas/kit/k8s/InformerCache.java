package io.gpuaas.kit.k8s;

import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local caches of Kubernetes objects, one fabric8 informer per named kind, run as a {@link ServiceComponent}: ready
 * once every informer has listed its kind (caught up) and while each watches. The service builds each informer
 * unstarted ({@code runnableInformer}) in a {@link Source}, so the list and watch stay visible in its own sources
 * (and its RBAC); the kit starts, guards, reports and closes them. See service-kit's DESIGN.md, "InformerCache".
 *
 * <ul>
 *   <li>Sources run on one kit-owned thread at start; a source that throws (say a CRD lookup while the API server is
 *       down) closes what was built and the whole set is built again after a backoff: {@code RECOVERING}.</li>
 *   <li>Watch and list errors are retried by fabric8 (list again, watch again, with its reconnect backoff), except a
 *       response that does not deserialize into the kind's class, which no retry can fix: that informer stops and the
 *       cache is {@code DEAD}. An informer that is not watching is {@code RECOVERING}.</li>
 *   <li>An event handler that throws does not touch the cache (fabric8 updates its store before it calls handlers):
 *       the failure is logged, counted ({@code gpuaas_informer_handler_failures_total}) and named in the health
 *       detail, and the cache stays {@code RUNNING}. One bad object must not take the service out of traffic; a
 *       resync (if the informer has one) hands it to the handler again.</li>
 * </ul>
 *
 * @param <T> what every kind's objects have in common ({@code HasMetadata} for a cache of several kinds)
 */
public final class InformerCache<T> implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(InformerCache.class);
    private static final Duration RETRY_FIRST = Duration.ofSeconds(1);
    private static final Duration RETRY_MAX = Duration.ofSeconds(30);

    /**
     * Builds one informer, not started (fabric8's {@code runnableInformer}), indexers added; or null when the kind
     * is not to be watched here (its CRD is absent). Called on the cache's start thread, and again after a failure.
     */
    @FunctionalInterface
    public interface Source<S> {
        SharedIndexInformer<S> build();
    }

    private record Kind<S>(String name, Source<S> source, ResourceEventHandler<? super S> handler) {}

    private final String name;
    private final int startOrder;
    private final List<Kind<? extends T>> kinds;
    private final InformerMetrics metrics;
    /** Published whole once every source built and started; replaced by an empty map on close. */
    private volatile Map<String, SharedIndexInformer<? extends T>> informers = Map.of();

    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicLong handlerFailures = new AtomicLong();
    private final AtomicLong watchErrors = new AtomicLong();
    private volatile boolean running;
    private volatile int attempts;
    private volatile String lastFailure;
    private volatile String lastHandlerFailure;
    private Thread starter;

    private InformerCache(Builder<T> builder) {
        this.name = builder.name;
        this.startOrder = builder.startOrder;
        this.kinds = List.copyOf(builder.kinds);
        this.metrics = InformerMetrics.of(name, builder.registry != null ? builder.registry : new PrometheusRegistry());
        kinds.forEach(kind -> metrics.declare(kind.name()));
    }

    /** A cache named {@code name} (kebab-case: the component, its thread and the {@code informer} label). */
    public static <T> Builder<T> builder(String name) {
        return new Builder<>(name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public synchronized void start() {
        if (starter == null && stopping.getCount() > 0) {
            starter = Thread.ofVirtual().name(name + "-start").start(this::buildUntilDone);
        }
    }

    private void buildUntilDone() {
        while (stopping.getCount() > 0) {
            try {
                buildAll();
                LOG.info("{}: informers started: {}", name, kindsWatched());
                return;
            } catch (RuntimeException e) {
                attempts++;
                lastFailure = e.toString();
                Duration wait = retryAfter(attempts);
                LOG.warn("{}: informers not started ({}); trying again in {}", name, e.toString(), wait);
                try {
                    if (stopping.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    static Duration retryAfter(int attempt) {
        long millis = RETRY_FIRST.toMillis() << Math.min(attempt - 1, 10);
        return Duration.ofMillis(Math.min(millis, RETRY_MAX.toMillis()));
    }

    /** Builds every source, then starts the informers; on a failure closes what it built. */
    private void buildAll() {
        Map<String, SharedIndexInformer<? extends T>> built = new LinkedHashMap<>();
        try {
            for (Kind<? extends T> kind : kinds) {
                SharedIndexInformer<? extends T> informer = prepare(kind);
                if (informer != null) {
                    built.put(kind.name(), informer);
                }
            }
        } catch (RuntimeException e) {
            built.values().forEach(SharedIndexInformer::close);
            throw e;
        }
        synchronized (this) {
            if (stopping.getCount() == 0) {
                built.values().forEach(SharedIndexInformer::close);
                return;
            }
            built.values().forEach(SharedIndexInformer::start);
            informers = java.util.Collections.unmodifiableMap(built);
            running = true;
        }
    }

    private <S extends T> SharedIndexInformer<S> prepare(Kind<S> kind) {
        SharedIndexInformer<S> informer = kind.source().build();
        if (informer == null) {
            LOG.info("{}: {} not watched", name, kind.name());
            return null;
        }
        informer.exceptionHandler(new Retrying(kind.name()));
        informer.addEventHandler(new Guarded<>(kind.name(), kind.handler()));
        return informer;
    }

    /** Every fabric8 error but a class mismatch is worth another list and watch. */
    private final class Retrying implements ExceptionHandler {
        private final String kind;

        Retrying(String kind) {
            this.kind = kind;
        }

        @Override
        public boolean retryAfterException(boolean isStarted, Throwable error) {
            watchErrors.incrementAndGet();
            metrics.watchError(kind);
            if (ExceptionHandler.isDeserializationException(error)) {
                LOG.error("{}: {} does not read as its class, the informer stops: {}", name, kind, error.toString());
                return false;
            }
            LOG.warn(
                    "{}: {} {} failed ({}); fabric8 lists and watches again",
                    name,
                    kind,
                    isStarted ? "watch" : "list",
                    error.toString());
            return true;
        }
    }

    /** Runs the service's handler; a throw is counted and reported, and the next event is handled as usual. */
    private final class Guarded<S> implements ResourceEventHandler<S> {
        private final String kind;
        private final ResourceEventHandler<? super S> handler;

        Guarded(String kind, ResourceEventHandler<? super S> handler) {
            this.kind = kind;
            this.handler = handler;
        }

        @Override
        public void onAdd(S obj) {
            handle("add", obj, () -> handler.onAdd(obj));
        }

        @Override
        public void onUpdate(S oldObj, S newObj) {
            handle("update", newObj, () -> handler.onUpdate(oldObj, newObj));
        }

        @Override
        public void onDelete(S obj, boolean deletedFinalStateUnknown) {
            handle("delete", obj, () -> handler.onDelete(obj, deletedFinalStateUnknown));
        }

        @Override
        public void onNothing() {
            handler.onNothing();
        }

        private void handle(String event, S obj, Runnable call) {
            try {
                call.run();
                metrics.handled(kind, false);
            } catch (RuntimeException e) {
                metrics.handled(kind, true);
                handlerFailures.incrementAndGet();
                String what = kind + " " + event + " of " + key(obj) + ": " + e;
                lastHandlerFailure = what;
                LOG.error("{}: handler failed on {}; the cache keeps the object", name, what, e);
            }
        }
    }

    private static String key(Object obj) {
        return obj instanceof io.fabric8.kubernetes.api.model.HasMetadata o && o.getMetadata() != null
                ? (o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace() + "/")
                        + o.getMetadata().getName()
                : "an object";
    }

    /** Whether every informer has listed its kind once (the cache holds what existed at start). */
    public boolean synced() {
        Map<String, SharedIndexInformer<? extends T>> now = informers;
        return running && now.values().stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /** Whether {@code kind}'s informer has listed and watches now: a change made now reaches its handler. */
    public boolean watching(String kind) {
        SharedIndexInformer<? extends T> informer = informer(kind);
        return informer != null
                && stopping.getCount() > 0
                && informer.hasSynced()
                && informer.isWatching()
                && !informer.stopped().toCompletableFuture().isDone();
    }

    /** Whether {@code kind} is watched (its source built an informer); false before the start. */
    public boolean watches(String kind) {
        return informer(kind) != null;
    }

    /** Every cached object of {@code kind}; empty when it is not watched. */
    public List<T> list(String kind) {
        SharedIndexInformer<? extends T> informer = informer(kind);
        return informer == null ? List.of() : List.copyOf(informer.getStore().list());
    }

    /** The object under {@code key} ({@code namespace/name}, or {@code name} for a cluster-scoped kind). */
    public Optional<T> get(String kind, String key) {
        SharedIndexInformer<? extends T> informer = informer(kind);
        return informer == null
                ? Optional.empty()
                : Optional.ofNullable(informer.getStore().getByKey(key));
    }

    /** The objects of {@code kind} its indexer {@code index} files under {@code value}. */
    public List<T> byIndex(String kind, String index, String value) {
        SharedIndexInformer<? extends T> informer = informer(kind);
        return informer == null ? List.of() : List.copyOf(informer.getIndexer().byIndex(index, value));
    }

    /** Handler calls that threw since start. */
    public long handlerFailures() {
        return handlerFailures.get();
    }

    /** The informer of {@code kind}, null before the start or when not watched: for tests that break a watch. */
    public SharedIndexInformer<? extends T> informer(String kind) {
        return informers.get(kind);
    }

    private List<String> kindsWatched() {
        return new ArrayList<>(informers.keySet());
    }

    @Override
    public ComponentHealth health() {
        boolean synced = synced();
        String failures = handlerFailures.get() == 0
                ? ""
                : "; " + handlerFailures.get() + " handler failures, last: " + lastHandlerFailure;
        if (stopping.getCount() == 0) {
            return new ComponentHealth(State.STOPPED, synced, "stopped" + failures, attempts);
        }
        Map<String, SharedIndexInformer<? extends T>> now = informers;
        if (!running) {
            return attempts == 0
                    ? new ComponentHealth(State.STARTING, false, "starting informers", 0)
                    : new ComponentHealth(
                            State.RECOVERING, false, "start failed " + attempts + "x: " + lastFailure, attempts);
        }
        List<String> stopped = names(now, i -> i.stopped().toCompletableFuture().isDone());
        if (!stopped.isEmpty()) {
            return new ComponentHealth(
                    State.DEAD, synced, "informers stopped for good: " + stopped + failures, attempts);
        }
        List<String> listing = names(now, i -> !i.hasSynced());
        if (!listing.isEmpty()) {
            State state = watchErrors.get() == 0 ? State.STARTING : State.RECOVERING;
            return new ComponentHealth(state, false, "listing " + listing + failures, attempts);
        }
        List<String> reconnecting = names(now, i -> !i.isWatching());
        return reconnecting.isEmpty()
                ? new ComponentHealth(State.RUNNING, true, "watching " + now.keySet() + failures, attempts)
                : new ComponentHealth(
                        State.RECOVERING, true, "watches reconnecting: " + reconnecting + failures, attempts);
    }

    private static <I> List<String> names(Map<String, I> informers, java.util.function.Predicate<? super I> which) {
        return informers.entrySet().stream()
                .filter(e -> which.test(e.getValue()))
                .map(Map.Entry::getKey)
                .toList();
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
        synchronized (this) {
            closeInformers();
        }
    }

    private void closeInformers() {
        informers.values().forEach(SharedIndexInformer::close);
        informers = Map.of();
    }

    /** Options of an {@link InformerCache}. */
    public static final class Builder<T> {
        private final String name;
        private final List<Kind<? extends T>> kinds = new ArrayList<>();
        private PrometheusRegistry registry;
        private int startOrder;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** Watches {@code kind} with the informer {@code source} builds; {@code handler} sees its changes. */
        public <S extends T> Builder<T> kind(String kind, Source<S> source, ResourceEventHandler<? super S> handler) {
            if (kinds.stream().anyMatch(k -> k.name().equals(kind))) {
                throw new IllegalArgumentException(name + ": kind " + kind + " added twice");
            }
            kinds.add(new Kind<>(kind, Objects.requireNonNull(source, "source"), Objects.requireNonNull(handler)));
            return this;
        }

        /** Watches {@code kind} for its cache alone (no handler). */
        public <S extends T> Builder<T> kind(String kind, Source<S> source) {
            return kind(kind, source, new ResourceEventHandler<S>() {
                @Override
                public void onAdd(S obj) {}

                @Override
                public void onUpdate(S oldObj, S newObj) {}

                @Override
                public void onDelete(S obj, boolean deletedFinalStateUnknown) {}
            });
        }

        /** Where handled events, handler failures and watch errors are counted, labelled by cache and kind. */
        public Builder<T> metrics(PrometheusRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        public Builder<T> startOrder(int order) {
            this.startOrder = order;
            return this;
        }

        public InformerCache<T> build() {
            if (kinds.isEmpty()) {
                throw new IllegalArgumentException(name + ": an informer cache needs a kind");
            }
            return new InformerCache<>(this);
        }
    }
}
