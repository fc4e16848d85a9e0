package io.gpuaas.quota.metrics;

import io.gpuaas.quota.k8s.ClusterQueueWriter;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.model.FlavorResource;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.math.BigDecimal;

/**
 * Every metric of the quota-projector. Labels stay low-cardinality: kind, outcome, flavor, resource, event type;
 * never tenant, booking or workload names.
 */
public final class QuotaProjectorMetrics implements ClusterQueueWriter.ConflictCounter {

    private final PrometheusRegistry registry;
    private final Counter writes;
    private final Counter conflicts;
    private final Counter reconcileErrors;
    private final Gauge planProblems;
    private final Gauge invariantOk;
    private final Gauge capacity;
    private final Gauge cohortNominal;
    private final Gauge tenantNominal;
    private final Gauge leader;
    private final Gauge bookings;
    private final Counter workloadEvents;
    private final Counter duplicatesSuppressed;
    private final Counter queueStates;
    private final Histogram queueStateLag;
    private final Histogram boundaryLag;
    private final Counter layoutChanges;
    private final Gauge layoutNotReady;
    private final Counter layoutNotices;

    public QuotaProjectorMetrics(PrometheusRegistry registry) {
        this.registry = registry;
        // Per node of a flexible pool: nodes are bounded by the fleet, unlike tenants or bookings.
        layoutChanges = Counter.builder()
                .name("gpuaas_mig_layout_changes_total")
                .help("MIG layout changes of flexible pools' nodes by outcome: requested (label set), success or"
                        + " failed (as the MIG manager reported), blocked (held back by an active booking or a pod)")
                .labelNames("node", "outcome")
                .register(registry);
        layoutNotReady = Gauge.builder()
                .name("gpuaas_mig_layout_nodes_not_ready")
                .help("Flexible pools' nodes whose needed MIG layout is failed (MIG manager) or blocked, by state")
                .labelNames("state")
                .register(registry);
        layoutNotices = Counter.builder()
                .name("gpuaas_mig_layout_notices_total")
                .help("MigLayoutNotReady notices written to gpuaas.notices, by state")
                .labelNames("state")
                .register(registry);
        writes = Counter.builder()
                .name("gpuaas_quota_writes_total")
                .help("Writes to Kueue objects by kind and outcome (unchanged means a reconcile found nothing to do)")
                .labelNames("kind", "outcome")
                .register(registry);
        conflicts = Counter.builder()
                .name("gpuaas_quota_write_conflicts_total")
                .help("409 Conflict answers that made the writer re-read and retry")
                .labelNames("kind")
                .register(registry);
        reconcileErrors = Counter.builder()
                .name("gpuaas_quota_reconcile_errors_total")
                .help("Reconciles that failed and were retried with backoff")
                .labelNames("kind")
                .register(registry);
        planProblems = Gauge.builder()
                .name("gpuaas_quota_plan_problems")
                .help("Active bookings the last plan could not project (unknown pool, bad tenant, over capacity)")
                .register(registry);
        invariantOk = Gauge.builder()
                .name("gpuaas_quota_invariant_ok")
                .help("1 when cohort nominal plus all tenant ClusterQueue nominal equals physical capacity, else 0")
                .labelNames("flavor", "resource")
                .register(registry);
        capacity = Gauge.builder()
                .name("gpuaas_quota_physical_capacity")
                .help("Physical units per flavor and resource from the pool catalog")
                .labelNames("flavor", "resource")
                .register(registry);
        cohortNominal = Gauge.builder()
                .name("gpuaas_quota_cohort_nominal")
                .help("The cohort's own nominal quota as found in the cluster")
                .labelNames("flavor", "resource")
                .register(registry);
        tenantNominal = Gauge.builder()
                .name("gpuaas_quota_tenant_nominal_sum")
                .help("Nominal quota summed over the gpuaas tenant ClusterQueues as found in the cluster")
                .labelNames("flavor", "resource")
                .register(registry);
        leader = Gauge.builder()
                .name("gpuaas_quota_leader")
                .help("1 while this replica holds the lease and writes")
                .register(registry);
        bookings = Gauge.builder()
                .name("gpuaas_quota_bookings_known")
                .help("Bookings read from the bookings topic")
                .register(registry);
        workloadEvents = Counter.builder()
                .name("gpuaas_kueue_workload_events_total")
                .help("Workload events published to the kueue-workloads topic")
                .labelNames("type")
                .register(registry);
        duplicatesSuppressed = Counter.builder()
                .name("gpuaas_kueue_workload_duplicates_suppressed_total")
                .help("Workload notifications (resyncs, restarts) that carried no new condition transition")
                .register(registry);
        queueStates = Counter.builder()
                .name("gpuaas_quota_state_records_total")
                .help("QueueState records published")
                .labelNames("kind")
                .register(registry);
        queueStateLag = Histogram.builder()
                .name("gpuaas_quota_state_lag_seconds")
                .help("From the Workload change seen by the informer to its QueueState acknowledged by Kafka")
                .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)
                .register(registry);
        boundaryLag = Histogram.builder()
                .name("gpuaas_quota_boundary_lag_seconds")
                .help("From a booking window boundary to the moment every resulting write was done")
                .classicUpperBounds(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5)
                .register(registry);
    }

    /** Where these series live; the service's reconcile loops register theirs there too. */
    public PrometheusRegistry registry() {
        return registry;
    }

    public void write(Kind kind, ClusterQueueWriter.Outcome outcome) {
        writes.labelValues(kind.kind(), outcome.name().toLowerCase()).inc();
    }

    @Override
    public void conflict(Kind kind) {
        conflicts.labelValues(kind.kind()).inc();
    }

    public void reconcileError(Kind kind) {
        reconcileErrors.labelValues(kind.kind()).inc();
    }

    public void planProblems(int count) {
        planProblems.set(count);
    }

    public void invariant(FlavorResource cell, long physical, BigDecimal cohort, BigDecimal tenants) {
        boolean ok = cohort.add(tenants).compareTo(BigDecimal.valueOf(physical)) == 0;
        invariantOk.labelValues(cell.flavor(), cell.resource()).set(ok ? 1 : 0);
        capacity.labelValues(cell.flavor(), cell.resource()).set(physical);
        cohortNominal.labelValues(cell.flavor(), cell.resource()).set(cohort.doubleValue());
        tenantNominal.labelValues(cell.flavor(), cell.resource()).set(tenants.doubleValue());
    }

    public void leader(boolean leading) {
        leader.set(leading ? 1 : 0);
    }

    public void bookingsKnown(int count) {
        bookings.set(count);
    }

    public void workloadEvent(String type) {
        workloadEvents.labelValues(type).inc();
    }

    public void duplicateSuppressed() {
        duplicatesSuppressed.inc();
    }

    public void queueState(String kind, double lagSeconds) {
        queueStates.labelValues(kind).inc();
        queueStateLag.observe(lagSeconds);
    }

    public void boundaryApplied(double lagSeconds) {
        boundaryLag.observe(lagSeconds);
    }

    public void layoutChange(String node, String outcome) {
        layoutChanges.labelValues(node, outcome).inc();
    }

    public void layoutNotReady(long failed, long blocked) {
        layoutNotReady.labelValues("failed").set(failed);
        layoutNotReady.labelValues("blocked").set(blocked);
    }

    public void layoutNotice(String state) {
        layoutNotices.labelValues(state).inc();
    }
}
