package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ReconcileLoop.Reconciler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker threads of one {@link ReconcileLoop}: each takes a key, reconciles it, and releases it; a failure
 * re-delays the key with per-key backoff, an {@link Error} that kills a worker starts another in its place.
 */
final class ReconcileWorkers<K> {

    private static final Logger LOG = LoggerFactory.getLogger(ReconcileWorkers.class);
    private static final Duration TAKE_TIMEOUT = Duration.ofMillis(500);

    /** How often a key failed in a row, and the last error (for health details). */
    record Failure(int times, String error) {}

    private final String name;
    private final Reconciler<K> reconciler;
    private final KeyedQueue<K> queue;
    private final Backoff backoff;
    private final int failureThreshold;
    private final ReconcileMetrics metrics;
    private final Map<K, Failure> failures = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private volatile boolean running;

    ReconcileWorkers(
            String name,
            Reconciler<K> reconciler,
            KeyedQueue<K> queue,
            Backoff backoff,
            int failureThreshold,
            ReconcileMetrics metrics) {
        this.name = name;
        this.reconciler = reconciler;
        this.queue = queue;
        this.backoff = backoff;
        this.failureThreshold = failureThreshold;
        this.metrics = metrics;
    }

    synchronized void start(int workers) {
        running = true;
        for (int i = 0; i < workers; i++) {
            startWorker();
        }
    }

    /** Lets in-flight reconciles finish within {@code grace}, then interrupts them. */
    void stop(Duration grace) throws InterruptedException {
        List<Thread> toJoin;
        synchronized (this) {
            running = false;
            toJoin = List.copyOf(threads);
        }
        queue.wakeAll();
        long deadline = System.nanoTime() + grace.toNanos();
        for (Thread thread : toJoin) {
            thread.join(Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1)));
        }
        // Past the grace a reconcile is interrupted; being level-based, the next start's resync redoes it.
        toJoin.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
        for (Thread thread : toJoin) {
            thread.join(Duration.ofSeconds(1));
        }
    }

    int restarts() {
        return restarts.get();
    }

    Map<K, Failure> failures() {
        return failures;
    }

    /** Whether some key has failed at least the threshold's number of times in a row. */
    boolean failing() {
        return failures.values().stream().anyMatch(f -> f.times() >= failureThreshold);
    }

    private synchronized void startWorker() {
        if (!running) {
            return;
        }
        threads.removeIf(t -> !t.isAlive());
        Thread thread = new Thread(this::work, name + "-worker-" + ids.getAndIncrement());
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void work() {
        try {
            while (running) {
                K key = queue.take(TAKE_TIMEOUT);
                if (key != null) {
                    process(key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            // process() released and re-delayed the key; a fresh worker takes over so the loop keeps its strength.
            LOG.error(
                    "{}: worker {} died; replacing it",
                    name,
                    Thread.currentThread().getName(),
                    e);
            restarts.incrementAndGet();
            startWorker();
        }
    }

    private void process(K key) throws InterruptedException {
        long started = System.nanoTime();
        Exception error = null;
        boolean returned = false;
        Outcome outcome = null;
        try {
            outcome = reconciler.reconcile(key);
            returned = true;
        } catch (Exception e) {
            error = e;
        } finally {
            // Also when an Error kills this worker: the key is released and retried, never lost in flight.
            metrics.reconciled(System.nanoTime() - started, !returned);
            if (returned) {
                succeeded(key, outcome == null ? Outcome.done() : outcome);
            } else {
                failed(key, error != null ? error : new IllegalStateException("worker died reconciling " + key));
            }
            queue.done(key);
        }
        if (error instanceof InterruptedException interrupted) {
            throw interrupted;
        }
    }

    private void succeeded(K key, Outcome outcome) {
        Failure before = failures.remove(key);
        if (before != null && before.times() >= failureThreshold) {
            LOG.info("{}: {} reconciled again after {} failures", name, key, before.times());
        }
        switch (outcome) {
            case Outcome.Done done -> {}
            case Outcome.RequeueAfter requeue -> queue.addAfter(key, requeue.delay());
        }
    }

    private void failed(K key, Exception error) {
        Failure failure = failures.merge(
                key, new Failure(1, String.valueOf(error)), (old, one) -> new Failure(old.times() + 1, one.error()));
        if (!running) {
            return;
        }
        Duration delay = backoff.delay(failure.times());
        // Delayed before done(key), so idle() never sees a failed key as finished.
        queue.addAfter(key, delay);
        if (failure.times() == failureThreshold) {
            LOG.error("{}: {} failed {} times in a row; retrying in {}", name, key, failure.times(), delay, error);
        } else {
            LOG.warn(
                    "{}: reconcile of {} failed ({}x), retrying in {}: {}",
                    name,
                    key,
                    failure.times(),
                    delay,
                    error.toString());
        }
    }
}
