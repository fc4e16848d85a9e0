package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A keyed, coalescing reconcile loop (client-go workqueue, java-operator-sdk): event handlers only {@link #enqueue}
 * keys, and workers reconcile one key at a time, level-based (read the current state, write the difference). A key
 * is never reconciled by two workers at once; one added while in flight is reconciled again after. A reconcile that
 * throws is retried with per-key exponential backoff; the loop reports {@link State#RECOVERING} while some key has
 * failed {@code failureThreshold} times in a row. A worker killed by an {@link Error} is replaced. See DESIGN.md.
 */
public final class ReconcileLoop<K> implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(ReconcileLoop.class);

    /** Makes the world match the desired state of one key; idempotent, so running it again is always safe. */
    public interface Reconciler<K> {
        Outcome reconcile(K key) throws Exception;
    }

    /** What a successful reconcile asks for next. */
    public sealed interface Outcome {
        /** Nothing until the key is enqueued again. */
        static Outcome done() {
            return Done.INSTANCE;
        }

        /** Reconcile the key again after {@code delay} (a drain in progress, a time boundary ahead). */
        static Outcome requeueAfter(Duration delay) {
            return new RequeueAfter(delay);
        }

        /** See {@link #done()}. */
        enum Done implements Outcome {
            INSTANCE
        }

        /** See {@link #requeueAfter(Duration)}. */
        record RequeueAfter(Duration delay) implements Outcome {
            public RequeueAfter {
                Objects.requireNonNull(delay, "delay");
            }
        }
    }

    private final String name;
    private final int workerCount;
    private final Duration resyncEvery;
    private final Supplier<? extends Collection<K>> allKeys;
    private final int startOrder;
    private final KeyedQueue<K> queue;
    private final ReconcileWorkers<K> workers;
    private volatile State state = State.STARTING;
    private ScheduledExecutorService resync;

    private ReconcileLoop(Builder<K> builder) {
        this.name = builder.name;
        this.workerCount = builder.workers;
        this.resyncEvery = builder.resyncEvery;
        this.allKeys = builder.allKeys;
        this.startOrder = builder.startOrder;
        ReconcileMetrics metrics =
                ReconcileMetrics.of(name, builder.registry != null ? builder.registry : new PrometheusRegistry());
        this.queue = new KeyedQueue<>(metrics::depth);
        this.workers = new ReconcileWorkers<>(
                name,
                builder.reconciler,
                queue,
                new Backoff(builder.backoffInitial, builder.backoffMax),
                builder.failureThreshold,
                metrics);
    }

    /**
     * A loop named {@code name} (kebab-case; the {@code loop} label of its metrics) around {@code reconciler}.
     * Defaults: 1 worker, backoff 200 ms to 30 s, RECOVERING after 5 failures in a row, no resync, no metrics.
     */
    public static <K> Builder<K> builder(String name, Reconciler<K> reconciler) {
        return new Builder<>(name, reconciler);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    /** Queues {@code key}: pending once however often added; cancels a retry delay the key had. */
    public void enqueue(K key) {
        queue.add(Objects.requireNonNull(key, "key"));
    }

    /** Queues {@code key} after {@code delay}, unless it is pending already or due sooner. */
    public void enqueueAfter(K key, Duration delay) {
        queue.addAfter(Objects.requireNonNull(key, "key"), Objects.requireNonNull(delay, "delay"));
    }

    /** Keys waiting for a worker now. */
    public int depth() {
        return queue.depth();
    }

    /** Nothing pending, delayed-due or in flight. */
    public boolean idle() {
        return queue.idle();
    }

    @Override
    public synchronized void start() {
        if (state != State.STARTING) {
            return;
        }
        workers.start(workerCount);
        if (resyncEvery != null) {
            resync = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, name + "-resync");
                thread.setDaemon(true);
                return thread;
            });
            resync.scheduleWithFixedDelay(this::resyncAll, 0, resyncEvery.toMillis(), TimeUnit.MILLISECONDS);
        }
        state = State.RUNNING;
        LOG.info("{}: {} workers started", name, workerCount);
    }

    @Override
    public void stop(Duration grace) {
        synchronized (this) {
            if (resync != null) {
                resync.shutdownNow();
            }
        }
        try {
            workers.stop(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        state = State.STOPPED;
        LOG.info("{}: stopped", name);
    }

    @Override
    public ComponentHealth health() {
        State now = state;
        if (now == State.RUNNING && workers.failing()) {
            now = State.RECOVERING;
        }
        List<String> failing = workers.failures().entrySet().stream()
                .limit(3)
                .map(e -> e.getKey() + " failed " + e.getValue().times() + "x: "
                        + e.getValue().error())
                .toList();
        String detail = queue.depth() + " pending, " + queue.inFlight() + " in flight, " + queue.delayed() + " delayed"
                + (failing.isEmpty() ? "" : "; " + String.join("; ", failing));
        return new ComponentHealth(now, true, detail, workers.restarts());
    }

    private void resyncAll() {
        try {
            Collection<K> keys = allKeys.get();
            keys.forEach(queue::add);
            LOG.debug("{}: resync queued {} keys", name, keys.size());
        } catch (RuntimeException e) {
            LOG.warn("{}: listing keys for the resync failed; next resync in {}", name, resyncEvery, e);
        }
    }

    /** Options of a {@link ReconcileLoop}. */
    public static final class Builder<K> {
        private final String name;
        private final Reconciler<K> reconciler;
        private int workers = 1;
        private Duration backoffInitial = Duration.ofMillis(200);
        private Duration backoffMax = Duration.ofSeconds(30);
        private Duration resyncEvery;
        private Supplier<? extends Collection<K>> allKeys;
        private int failureThreshold = 5;
        private PrometheusRegistry registry;
        private int startOrder;

        private Builder(String name, Reconciler<K> reconciler) {
            this.name = Objects.requireNonNull(name, "name");
            this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
        }

        public Builder<K> workers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + n);
            }
            this.workers = n;
            return this;
        }

        /** Per-key exponential backoff with jitter between retries of a failed key. */
        public Builder<K> backoff(Duration initial, Duration max) {
            new Backoff(initial, max);
            this.backoffInitial = initial;
            this.backoffMax = max;
            return this;
        }

        /** Queues every key of {@code allKeys} at start and then every {@code every}: the level-based safety net. */
        public Builder<K> resync(Duration every, Supplier<? extends Collection<K>> allKeys) {
            if (!every.isPositive()) {
                throw new IllegalArgumentException("resync period must be positive, got " + every);
            }
            this.resyncEvery = every;
            this.allKeys = Objects.requireNonNull(allKeys, "allKeys");
            return this;
        }

        /** RECOVERING at and after this many consecutive failures of one key. */
        public Builder<K> failureThreshold(int consecutiveFailures) {
            if (consecutiveFailures < 1) {
                throw new IllegalArgumentException("failure threshold must be at least 1, got " + consecutiveFailures);
            }
            this.failureThreshold = consecutiveFailures;
            return this;
        }

        /** Where queue depth, latency, failures and totals are registered, labelled {@code loop=<name>}. */
        public Builder<K> metrics(PrometheusRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        public Builder<K> startOrder(int order) {
            this.startOrder = order;
            return this;
        }

        public ReconcileLoop<K> build() {
            return new ReconcileLoop<>(this);
        }
    }
}
