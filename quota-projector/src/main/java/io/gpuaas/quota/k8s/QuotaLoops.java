package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.quota.config.NodeResourceSettings;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.FlavorResource;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Bookings to Kueue objects as service-kit reconcile loops: {@code quota-planner} (one key, the plan; see
 * {@link QuotaPlanner}) feeds two writer loops of {@code gpuaas.quota.writers} workers each, one key per object (see
 * {@link QuotaReconciler}): {@code quota-writer} for the Cohort and the ClusterQueues, {@code queue-writer} for
 * LocalQueues and HardwareProfiles. A ClusterQueue growing at a boundary waits for the Cohort's shrink (the
 * {@link QuotaBudget}); in one queue both would also wait behind every LocalQueue and HardwareProfile write queued
 * before them, and a queue woken by freed room would queue behind them again, so under a slow API server the quota
 * would lag by the whole backlog. All loops run on every replica; each reconcile passes the {@link WriterGate}, so only
 * the Lease holder writes. The Cohort is one key like any other: however many boundaries fall while it is queued or
 * being written, it is written once more afterwards, from the plan current then.
 */
public final class QuotaLoops {

    private static final Duration BACKOFF_INITIAL = Duration.ofMillis(200);
    private static final Duration BACKOFF_MAX = Duration.ofSeconds(5);
    /** A key failing this often in a row makes its loop RECOVERING (readiness DOWN); one 409 or blip does not. */
    private static final int FAILURE_THRESHOLD = 3;

    private final ClusterCache cache;
    private final QuotaSettings settings;
    private final NodeResourceSettings nodeResources;
    private final WriterGate gate;
    private final ClusterQueueWriter writer;
    private final QuotaBudget budget;
    private final BoundaryLag lag;
    private final QuotaPlanner planner;
    private final QuotaReconciler reconciler;
    private final ReconcileLoop<String> plans;
    private final ReconcileLoop<ObjectRef> quotaWrites;
    private final ReconcileLoop<ObjectRef> queueWrites;
    private final int startOrder;
    private final QuotaProjectorMetrics metrics;

    public QuotaLoops(
            KubernetesClient client,
            ClusterCache cache,
            BookingSource bookings,
            BudgetSource budgets,
            PoolCatalog catalog,
            QuotaSettings settings,
            NodeResourceSettings nodeResources,
            WriterGate gate,
            Clock clock,
            QuotaProjectorMetrics metrics,
            Supplier<Map<FlavorResource, Long>> inForce,
            int startOrder) {
        this.cache = cache;
        this.settings = settings;
        this.nodeResources = nodeResources;
        this.gate = gate;
        this.metrics = metrics;
        this.startOrder = startOrder;
        this.writer = new ClusterQueueWriter(client, cache::get, metrics);
        this.lag = new BoundaryLag(clock, metrics);
        this.budget = new QuotaBudget(settings.cohortName(), this::enqueue);
        this.planner = new QuotaPlanner(
                cache, bookings, budgets, catalog, clock, metrics, lag, this::enqueue, inForce, settings.queueLead());
        this.reconciler = new QuotaReconciler(
                cache,
                writer,
                planner::current,
                budget,
                new Teardown(cache, writer, new DrainPolicy(settings.drainTimeout()), clock, metrics),
                lag,
                metrics);
        this.plans = ReconcileLoop.<String>builder("quota-planner", key -> gated(planner::plan))
                .backoff(BACKOFF_INITIAL, BACKOFF_MAX)
                .failureThreshold(FAILURE_THRESHOLD)
                .resync(settings.resync(), () -> List.of(QuotaPlanner.KEY))
                .metrics(metrics.registry())
                .startOrder(startOrder)
                .build();
        this.quotaWrites = writerLoop("quota-writer", true);
        this.queueWrites = writerLoop("queue-writer", false);
    }

    /**
     * A writer loop for the keys of one side: the quota side (Cohort, ClusterQueues) or the queue side (LocalQueues,
     * HardwareProfiles).
     */
    private ReconcileLoop<ObjectRef> writerLoop(String name, boolean quotaSide) {
        return ReconcileLoop.<ObjectRef>builder(name, ref -> gated(() -> reconciler.reconcile(ref)))
                .workers(settings.writers())
                .backoff(BACKOFF_INITIAL, BACKOFF_MAX)
                .failureThreshold(FAILURE_THRESHOLD)
                .resync(settings.resync(), () -> allKeys().stream()
                        .filter(ref -> holdsQuota(ref) == quotaSide)
                        .toList())
                .metrics(metrics.registry())
                .startOrder(startOrder)
                .build();
    }

    /** The three loops, as lifecycle components. */
    public List<ServiceComponent> components() {
        return List.of(quotaWrites, queueWrites, plans);
    }

    /** Bookings changed: plan again (a burst makes one plan). */
    public void requestPlan() {
        plans.enqueue(QuotaPlanner.KEY);
    }

    /** A term begins (the gate is open): forget the last term's writes, plan, and compare every object once. */
    public void takeover() {
        writer.forget();
        planner.takeover(new KueueManifests(new ManifestSettings(
                settings.cohortName(),
                settings.localQueueName(),
                settings.allowBorrowing(),
                cache.hardwareProfiles(),
                nodeResources)));
        requestPlan();
    }

    /** Informer listener (every replica): quota held in the cluster always; owned objects to write while leading. */
    public void onChange(Change change) {
        budget.onChange(change);
        if (change.kind() == Kind.NAMESPACE) {
            planner.namespacesChanged();
        }
        if (gate.isOpen()) {
            reconciler.onChange(change, this::enqueue, this::requestPlan);
        }
    }

    /**
     * Measures the invariant on the cluster (cohort plus tenant queues equal capacity) while nothing is being
     * applied; in the middle of a boundary it would only report the moment between two writes.
     */
    public void checkInvariant() {
        PlanSnapshot plan = planner.current();
        if (!gate.isOpen() || plan == null || quotaWrites.depth() > 0 || !lag.idle() || budget.busy()) {
            return;
        }
        HasMetadata cohort = cache.get(plan.cohort()).orElse(null);
        InvariantCheck.check(plan.capacity(), cohort, cache.owned(Kind.CLUSTER_QUEUE))
                .forEach((cell, sums) -> metrics.invariant(cell, sums.physical(), sums.cohort(), sums.tenants()));
    }

    private void enqueue(ObjectRef ref) {
        (holdsQuota(ref) ? quotaWrites : queueWrites).enqueue(ref);
    }

    /** The Cohort and the ClusterQueues: the objects the budget orders, written apart from the rest. */
    private static boolean holdsQuota(ObjectRef ref) {
        return ref.kind() == Kind.COHORT || ref.kind() == Kind.CLUSTER_QUEUE;
    }

    /** A follower's reconcile does nothing: only the Lease holder writes. */
    private Outcome gated(Callable<Outcome> work) throws Exception {
        return gate.ifOpen(work).orElse(Outcome.done());
    }

    /** The resync: every desired and every owned object, while leading. */
    private Collection<ObjectRef> allKeys() {
        if (!gate.isOpen()) {
            return List.of();
        }
        Set<ObjectRef> keys = planner.owned();
        PlanSnapshot plan = planner.current();
        if (plan != null) {
            keys.addAll(plan.desired().keySet());
        }
        return keys;
    }
}
