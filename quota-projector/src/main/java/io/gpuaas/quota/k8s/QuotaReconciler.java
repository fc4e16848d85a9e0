package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The write step: one key of the {@code quota-writer} loop is one object. It compares the current plan's object
 * with the cluster's and writes only the difference (which also undoes a hand edit or deletion); an object the plan
 * no longer wants is drained or deleted ({@link Teardown}). Quota goes through the {@link QuotaBudget}, so a queue
 * grows only into room that shrinking queues or the Cohort already gave back. Level-based and idempotent: running a
 * key again is always safe, which is what the loop's retries and resync rely on.
 */
final class QuotaReconciler {

    /** A queue waiting for room is woken by the write that frees it; this is only the safety net. */
    static final Duration WAITING_RECHECK = Duration.ofSeconds(5);

    /** How a reconcile ended: whether the object now reflects the plan, and when to look at it again. */
    private record Result(boolean applied, Optional<Duration> again) {
        static final Result APPLIED = new Result(true, Optional.empty());
    }

    private final ClusterCache cache;
    private final ClusterQueueWriter writer;
    private final Supplier<PlanSnapshot> plans;
    private final QuotaBudget budget;
    private final Teardown teardown;
    private final BoundaryLag lag;
    private final QuotaProjectorMetrics metrics;

    QuotaReconciler(
            ClusterCache cache,
            ClusterQueueWriter writer,
            Supplier<PlanSnapshot> plans,
            QuotaBudget budget,
            Teardown teardown,
            BoundaryLag lag,
            QuotaProjectorMetrics metrics) {
        this.cache = cache;
        this.writer = writer;
        this.plans = plans;
        this.budget = budget;
        this.teardown = teardown;
        this.lag = lag;
        this.metrics = metrics;
    }

    Outcome reconcile(ObjectRef ref) {
        PlanSnapshot plan = plans.get();
        if (plan == null) {
            return Outcome.done(); // the term's first plan queues every key again
        }
        try {
            HasMetadata wanted = plan.desired().get(ref);
            Result result = wanted != null ? write(ref, wanted, plan) : retire(ref, plan);
            if (result.applied()) {
                lag.applied(ref, plan.generation());
            }
            return result.again().map(Outcome::requeueAfter).orElse(Outcome.done());
        } catch (RuntimeException e) {
            metrics.reconcileError(ref.kind());
            throw e;
        }
    }

    private Result write(ObjectRef ref, HasMetadata wanted, PlanSnapshot plan) {
        if (ref.kind() != Kind.COHORT && ref.kind() != Kind.CLUSTER_QUEUE) {
            metrics.write(ref.kind(), writer.apply(ref, wanted));
            return Result.APPLIED;
        }
        boolean cohort = ref.kind() == Kind.COHORT;
        QuotaBudget.Grant grant = budget.reserve(ref, plan.nominal(ref), plan.capacity(), cohort);
        try {
            // A queue that must wait for room is not created empty first: that would cost a second write.
            if (grant.complete() || cohort || writer.known(ref) != null) {
                metrics.write(
                        ref.kind(), writer.apply(ref, grant.complete() ? wanted : plan.render(ref, grant.cells())));
            }
        } finally {
            budget.release(ref, writer.known(ref));
        }
        return grant.complete() ? Result.APPLIED : new Result(false, Optional.of(WAITING_RECHECK));
    }

    private Result retire(ObjectRef ref, PlanSnapshot plan) {
        Optional<HasMetadata> actual = cache.get(ref).filter(Ownership::owned);
        if (actual.isEmpty()) {
            return Result.APPLIED;
        }
        Teardown.Step step = teardown.retire(ref, actual.get(), plan.capacity(), plan.manifests());
        if (ref.kind() == Kind.CLUSTER_QUEUE) {
            switch (step.outcome()) {
                case DELETED, GONE -> budget.deletedByUs(ref, actual.get());
                default -> budget.release(ref, writer.known(ref));
            }
        }
        return new Result(true, step.revisitAfter());
    }

    /** Informer listener: owned objects and Workloads on draining queues are queued, namespaces ask for a plan. */
    void onChange(Change change, Consumer<ObjectRef> enqueue, Runnable replan) {
        PlanSnapshot plan = plans.get();
        switch (change.kind()) {
            case NAMESPACE -> replan.run();
            case WORKLOAD -> workloadChanged(change, plan, enqueue);
            case COHORT, CLUSTER_QUEUE, LOCAL_QUEUE, HARDWARE_PROFILE, WORKLOAD_PRIORITY_CLASS -> {
                boolean echo = !change.deleted() && writer.wrote(change.ref(), change.after());
                // The notification of our own write needs no reconcile: the object is exactly what we wrote.
                if (!echo
                        && (Ownership.owned(change.before())
                                || Ownership.owned(change.after())
                                || plan != null && plan.desired().containsKey(change.ref()))) {
                    enqueue.accept(change.ref());
                }
                if (change.kind() == Kind.CLUSTER_QUEUE && change.deleted()) {
                    // Its LocalQueues waited for the drain to finish; now they can go.
                    cache.localQueuesOf(change.ref().name())
                            .forEach(lq -> enqueue.accept(ObjectRef.of(Kind.LOCAL_QUEUE, lq)));
                }
            }
        }
    }

    private void workloadChanged(Change change, PlanSnapshot plan, Consumer<ObjectRef> enqueue) {
        Set<String> queues = new TreeSet<>();
        for (HasMetadata object : new HasMetadata[] {change.before(), change.after()}) {
            if (object instanceof Workload workload) {
                Optional.ofNullable(Workloads.admittedClusterQueue(workload)).ifPresent(queues::add);
            }
        }
        for (String name : queues) {
            ObjectRef ref = new ObjectRef(Kind.CLUSTER_QUEUE, null, name);
            boolean draining = plan == null || !plan.desired().containsKey(ref);
            if (draining && cache.get(ref).filter(Ownership::owned).isPresent()) {
                enqueue.accept(ref);
            }
        }
    }
}
