package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The level-based loop. A planner computes the desired objects from the bookings at "now" whenever bookings or
 * tenant namespaces change or a window boundary is reached (a timer armed for the next one), and queues every
 * desired or owned object. Informer changes to owned objects queue just that object. Workers take one key at a
 * time, compare desired with the cached actual object, and write only the difference: that is also how a hand
 * edit or a deletion is undone. Objects no longer desired are drained (ClusterQueues) or deleted.
 */
public final class QuotaReconciler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaReconciler.class);
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final ClusterCache cache;
    private final ClusterQueueWriter writer;
    private final KueueManifests manifests;
    private final BookingSource bookings;
    private final PoolCatalog catalog;
    private final Clock clock;
    private final Teardown teardown;
    private final PlanRenderer renderer;
    private final int workers;
    private final QuotaProjectorMetrics metrics;
    private final KeyedWorkQueue<ObjectRef> queue = new KeyedWorkQueue<>();
    private final AtomicBoolean planQueued = new AtomicBoolean();
    private final ScheduledExecutorService planner = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "quota-planner"));
    private final List<Thread> workerThreads = new ArrayList<>();
    private volatile Map<ObjectRef, GenericKubernetesResource> desired = Map.of();
    private volatile DesiredQuota quota;
    private volatile Instant boundaryPending;
    private volatile boolean running;
    private volatile boolean planning;
    private ScheduledFuture<?> boundaryTimer;
    private final Duration fullSweep;
    private Instant lastFullSweep;

    public QuotaReconciler(ClusterCache cache, ClusterQueueWriter writer, KueueManifests manifests, BookingSource bookings,
                           PoolCatalog catalog, Clock clock, Duration drainTimeout, int workers, Duration fullSweep,
                           QuotaProjectorMetrics metrics) {
        this.fullSweep = fullSweep;
        this.cache = cache;
        this.writer = writer;
        this.manifests = manifests;
        this.bookings = bookings;
        this.catalog = catalog;
        this.clock = clock;
        this.renderer = new PlanRenderer(manifests);
        this.teardown = new Teardown(cache, writer, manifests, new DrainPolicy(drainTimeout), clock, metrics,
                (ref, delay) -> later(() -> enqueue(ref), delay));
        this.workers = workers;
        this.metrics = metrics;
    }

    public void start() {
        running = true;
        for (int i = 0; i < workers; i++) {
            Thread worker = thread(this::work, "quota-writer-" + i);
            workerThreads.add(worker);
            worker.start();
        }
        planner.scheduleWithFixedDelay(this::checkInvariant, 1, 1, TimeUnit.SECONDS);
        planner.scheduleWithFixedDelay(this::requestReplan, fullSweep.toMillis(), fullSweep.toMillis(), TimeUnit.MILLISECONDS);
        requestReplan();
    }

    /** Recompute the plan soon; many requests in a burst make one plan. */
    public void requestReplan() {
        if (running && planQueued.compareAndSet(false, true)) {
            planner.execute(this::replan);
        }
    }

    public void enqueue(ObjectRef ref) {
        queue.add(ref);
    }

    /** Informer listener: owned objects and workloads on draining queues are queued, namespaces trigger a plan. */
    public void onChange(Change change) {
        switch (change.kind()) {
            case NAMESPACE -> requestReplan();
            case WORKLOAD -> workloadChanged(change);
            case COHORT, CLUSTER_QUEUE, LOCAL_QUEUE, HARDWARE_PROFILE -> {
                if (Ownership.owned(change.before()) || Ownership.owned(change.after()) || desired.containsKey(change.ref())) {
                    enqueue(change.ref());
                }
                if (change.kind() == Kind.CLUSTER_QUEUE && change.deleted()) {
                    // Its LocalQueues waited for the drain to finish; now they can go.
                    cache.localQueuesOf(change.ref().name()).forEach(lq -> enqueue(ObjectRef.of(Kind.LOCAL_QUEUE, lq)));
                }
            }
        }
    }

    private void workloadChanged(Change change) {
        Set<String> queues = new TreeSet<>();
        Optional.ofNullable(change.before()).map(Workloads::admittedClusterQueue).ifPresent(queues::add);
        Optional.ofNullable(change.after()).map(Workloads::admittedClusterQueue).ifPresent(queues::add);
        for (String name : queues) {
            ObjectRef ref = new ObjectRef(Kind.CLUSTER_QUEUE, null, name);
            if (!desired.containsKey(ref) && cache.get(ref).filter(Ownership::owned).isPresent()) {
                enqueue(ref);
            }
        }
    }

    private void replan() {
        planning = true;
        planQueued.set(false);
        try {
            plan();
        } catch (RuntimeException e) {
            LOG.error("planning failed; retrying in {}", RETRY, e);
            later(this::requestReplan, RETRY.toMillis());
        } finally {
            planning = false;
        }
    }

    private void plan() {
        Instant now = clock.instant();
        DesiredQuota plan = QuotaPlan.at(now, bookings.bookings(), catalog, TenantNamespaces.from(cache.list(Kind.NAMESPACE)));
        plan.problems().forEach(p -> LOG.warn("cannot project: {}", p));
        metrics.planProblems(plan.problems().size());
        PlanRenderer.Rendered rendered = renderer.render(plan);
        Map<ObjectRef, GenericKubernetesResource> next = rendered.desired();
        desired = next;
        quota = plan;
        Set<ObjectRef> keys = new TreeSet<>(rendered.changed());
        if (fullSweepDue(now)) {
            // Level-based safety net: every desired and every owned object is compared again now and then.
            keys.addAll(next.keySet());
            for (Kind kind : List.of(Kind.COHORT, Kind.CLUSTER_QUEUE, Kind.LOCAL_QUEUE, Kind.HARDWARE_PROFILE)) {
                cache.owned(kind).forEach(o -> keys.add(ObjectRef.of(kind, o)));
            }
        }
        LOG.debug("planned {} objects for {} tenants at {}: {} to reconcile", next.size(), plan.tenants().size(), now,
                keys.size());
        // Shrinking quota first keeps the cohort's total at or under capacity while a boundary is applied.
        keys.stream().filter(this::shrinks).forEach(queue::add);
        keys.forEach(queue::add);
        armBoundaryTimer(now);
    }

    private boolean fullSweepDue(Instant now) {
        if (lastFullSweep == null || !now.isBefore(lastFullSweep.plus(fullSweep))) {
            lastFullSweep = now;
            return true;
        }
        return false;
    }

    private boolean shrinks(ObjectRef ref) {
        if (ref.kind() != Kind.COHORT && ref.kind() != Kind.CLUSTER_QUEUE) {
            return false;
        }
        var actual = cache.get(ref).map(NominalQuota::of).orElse(new TreeMap<>());
        var wanted = Optional.ofNullable(desired.get(ref)).map(NominalQuota::of).orElse(new TreeMap<>());
        return actual.entrySet().stream().anyMatch(e -> e.getValue().compareTo(
                wanted.getOrDefault(e.getKey(), java.math.BigDecimal.ZERO)) > 0);
    }

    private void armBoundaryTimer(Instant now) {
        if (boundaryTimer != null) {
            boundaryTimer.cancel(false);
        }
        QuotaPlan.nextBoundary(bookings.bookings(), now).ifPresent(next -> {
            long delay = Math.max(0, Duration.between(clock.instant(), next).toMillis());
            boundaryTimer = planner.schedule(() -> {
                boundaryPending = next;
                requestReplan();
            }, delay, TimeUnit.MILLISECONDS);
        });
    }

    private void work() {
        while (running) {
            ObjectRef ref;
            try {
                ref = queue.poll(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (ref == null) {
                continue;
            }
            try {
                reconcile(ref);
            } catch (RuntimeException e) {
                metrics.reconcileError(ref.kind());
                LOG.warn("reconcile of {} failed, retrying in {}: {}", ref, RETRY, e.toString());
                later(() -> enqueue(ref), RETRY.toMillis());
            } finally {
                queue.done(ref);
                boundaryDone();
            }
        }
    }

    private void later(Runnable task, long delayMillis) {
        try {
            planner.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            LOG.debug("reconciler stopped; not rescheduling");
        }
    }

    private void boundaryDone() {
        Instant boundary = boundaryPending;
        if (boundary != null && !planning && !planQueued.get() && queue.idle()) {
            boundaryPending = null;
            Duration lag = Duration.between(boundary, clock.instant());
            metrics.boundaryApplied(lag.toNanos() / 1e9);
            LOG.info("boundary {} applied {} ms after it", boundary, lag.toMillis());
        }
    }

    void reconcile(ObjectRef ref) {
        GenericKubernetesResource wanted = desired.get(ref);
        if (wanted != null) {
            metrics.write(ref.kind(), writer.apply(ref, wanted));
            return;
        }
        Optional<GenericKubernetesResource> actual = cache.get(ref).filter(Ownership::owned);
        if (actual.isEmpty()) {
            return;
        }
        teardown.retire(ref, actual.get(), currentCells());
    }

    private SortedMap<FlavorResource, Long> currentCells() {
        DesiredQuota plan = quota;
        return plan != null ? plan.cells() : QuotaPlan.at(clock.instant(), List.of(), catalog, Map.of()).cells();
    }

    private void checkInvariant() {
        if (!queue.idle() || planQueued.get()) {
            return;
        }
        try {
            DesiredQuota plan = quota;
            if (plan == null) {
                return;
            }
            GenericKubernetesResource cohort = cache.get(new ObjectRef(Kind.COHORT, null, manifests.settings().cohortName()))
                    .orElse(null);
            InvariantCheck.check(plan.cells(), cohort, cache.owned(Kind.CLUSTER_QUEUE))
                    .forEach((cell, sums) -> metrics.invariant(cell, sums.physical(), sums.cohort(), sums.tenants()));
        } catch (RuntimeException e) {
            LOG.warn("invariant check failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        running = false;
        planner.shutdownNow();
        workerThreads.forEach(Thread::interrupt);
        for (Thread worker : workerThreads) {
            try {
                worker.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Thread thread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
