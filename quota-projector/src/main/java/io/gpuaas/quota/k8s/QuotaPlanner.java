package io.gpuaas.quota.k8s;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.BorrowPlan;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plan step: the one key of the {@code quota-planner} loop. It computes the desired quota at "now" from the
 * bookings, renders it, publishes it as the current {@link PlanSnapshot} and hands the keys whose object changed to
 * the writer loop; then it asks to be run again at the next window boundary. Bookings or tenant namespaces that
 * change enqueue it too; many requests while it runs make one more plan (the loop coalesces them), so a burst of
 * boundaries or bookings is planned once.
 */
final class QuotaPlanner {

    /** The planner loop's only key. */
    static final String KEY = "plan";

    private static final Logger LOG = LoggerFactory.getLogger(QuotaPlanner.class);
    private static final List<Kind> OWNED_KINDS = List.of(
            Kind.COHORT, Kind.CLUSTER_QUEUE, Kind.LOCAL_QUEUE, Kind.HARDWARE_PROFILE, Kind.WORKLOAD_PRIORITY_CLASS);

    private final ClusterCache cache;
    private final BookingSource bookings;
    private final BudgetSource budgets;
    private final PoolCatalog catalog;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final BoundaryLag lag;
    private final Consumer<ObjectRef> writes;
    private final Supplier<Map<FlavorResource, Long>> inForce;
    private final Duration queueLead;
    private volatile PlanSnapshot current;
    private volatile boolean namespacesChanged = true;
    private Map<String, Set<String>> tenantNamespaces = Map.of();
    private KueueManifests manifests;
    private PlanRenderer renderer;
    private long generation;
    private boolean sweep;
    private Instant armed;

    QuotaPlanner(
            ClusterCache cache,
            BookingSource bookings,
            BudgetSource budgets,
            PoolCatalog catalog,
            Clock clock,
            QuotaProjectorMetrics metrics,
            BoundaryLag lag,
            Consumer<ObjectRef> writes,
            Supplier<Map<FlavorResource, Long>> inForce,
            Duration queueLead) {
        this.inForce = inForce;
        this.queueLead = queueLead;
        this.cache = cache;
        this.bookings = bookings;
        this.budgets = budgets;
        this.catalog = catalog;
        this.clock = clock;
        this.metrics = metrics;
        this.lag = lag;
        this.writes = writes;
    }

    /** The plan the writers apply; null before a term's first plan. */
    PlanSnapshot current() {
        return current;
    }

    /** A tenant namespace changed: the next plan reads them again (not every plan: 1,000 of them). */
    void namespacesChanged() {
        namespacesChanged = true;
    }

    /** A new term: render from scratch, and compare every desired and every owned object once. */
    synchronized void takeover(KueueManifests manifests) {
        this.manifests = manifests;
        this.renderer = new PlanRenderer(manifests);
        this.current = null;
        this.sweep = true;
        this.armed = null;
        lag.clear();
    }

    /** Plans now; asks to run again at the next boundary. */
    synchronized Outcome plan() {
        if (renderer == null) {
            return Outcome.done(); // no term yet
        }
        Instant now = clock.instant();
        Collection<Booking> known = bookings.bookings();
        if (namespacesChanged) {
            // Cleared before reading: a change during the read sets it again and the next plan reads once more.
            namespacesChanged = false;
            tenantNamespaces = TenantNamespaces.from(cache.list(Kind.NAMESPACE));
        }
        DesiredQuota quota =
                withBorrowers(QuotaPlan.at(now, known, catalog, tenantNamespaces, inForce.get(), queueLead), known);
        quota.problems().forEach(p -> LOG.warn("cannot project: {}", p));
        metrics.planProblems(quota.problems().size());
        PlanRenderer.Rendered rendered = renderer.render(quota);
        PlanSnapshot snapshot = new PlanSnapshot(++generation, quota, rendered.desired(), manifests);
        current = snapshot;
        Set<ObjectRef> keys = keysToWrite(snapshot, rendered.changed());
        if (armed != null && !now.isBefore(armed)) {
            lag.boundary(armed, snapshot.generation(), keys);
        }
        LOG.debug(
                "plan {} at {}: {} objects for {} tenants, {} to reconcile",
                snapshot.generation(),
                now,
                snapshot.desired().size(),
                quota.tenants().size(),
                keys.size());
        keys.forEach(writes);
        Optional<Instant> next = QuotaPlan.nextBoundary(known, now, queueLead);
        if (!quota.borrowCells().isEmpty()) {
            // Budgets are per UTC month: at its turn every tenant's over-budget state may change.
            Instant month = BorrowPlan.nextMonth(now);
            next = Optional.of(next.filter(n -> n.isBefore(month)).orElse(month));
        }
        armed = next.orElse(null);
        return next.map(at -> Outcome.requeueAfter(positive(Duration.between(clock.instant(), at))))
                .orElse(Outcome.done());
    }

    /**
     * The plan with over-budget tenants' borrow-only queues, where some pool allows them and tenant queues may borrow
     * at all ({@code allow-borrowing}: with {@code borrowingLimit: 0} everywhere a queue of nominal 0 runs nothing).
     */
    private DesiredQuota withBorrowers(DesiredQuota quota, Collection<Booking> known) {
        SortedSet<FlavorResource> cells = manifests.settings().allowBorrowing()
                ? BorrowPlan.cells(catalog, quota.cells().keySet())
                : Collections.emptySortedSet();
        Set<String> over = cells.isEmpty() ? Set.of() : budgets.overBudget(BorrowPlan.month(quota.at()));
        return quota.withBorrowers(cells, BorrowPlan.queues(over, cells, known, tenantNamespaces));
    }

    /**
     * The Cohort first (it shrinks when a booking starts, and the tenant's queue may grow only after it), then what
     * changed; on a term's first plan every desired and every owned object.
     */
    private Set<ObjectRef> keysToWrite(PlanSnapshot snapshot, Set<ObjectRef> changed) {
        Set<ObjectRef> keys = new LinkedHashSet<>();
        if (changed.contains(snapshot.cohort()) || sweep) {
            keys.add(snapshot.cohort());
        }
        keys.addAll(changed);
        if (sweep) {
            keys.addAll(new TreeSet<>(snapshot.desired().keySet()));
            keys.addAll(owned());
            sweep = false;
        }
        return keys;
    }

    /** Every object this projector owns in the cluster (the resync's and a takeover's safety net). */
    Set<ObjectRef> owned() {
        Set<ObjectRef> keys = new TreeSet<>();
        for (Kind kind : OWNED_KINDS) {
            cache.owned(kind).forEach(o -> keys.add(ObjectRef.of(kind, o)));
        }
        return keys;
    }

    private static Duration positive(Duration delay) {
        return delay.isNegative() ? Duration.ZERO : delay;
    }
}
