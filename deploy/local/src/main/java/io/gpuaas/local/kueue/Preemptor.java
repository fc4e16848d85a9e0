package io.gpuaas.local.kueue;

import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.kueue.QuotaModel.Key;
import io.gpuaas.local.kueue.QuotaModel.PreemptionAssignment;
import io.gpuaas.local.model.PodSetDemand;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Kueue's classical preemption (kubernetes-sigs/kueue {@code pkg/scheduler/preemption}) for one pending Workload,
 * on the quota model of one admission pass. Candidates are admitted Workloads using a (flavor, resource) the pending
 * one cannot get otherwise:
 * <ul>
 *   <li>of its own ClusterQueue when {@code withinClusterQueue} allows it: lower priority
 *       ({@code LowerPriority}), or also equal priority but created later ({@code LowerOrNewerEqualPriority});</li>
 *   <li>of other ClusterQueues of its cohort that borrow that (flavor, resource), when {@code reclaimWithinCohort}
 *       allows it: any priority ({@code Any}) or lower only ({@code LowerPriority}).</li>
 * </ul>
 * They are tried other queues first, then lower priority, then the most recently admitted; a queue's Workloads stop
 * being candidates once it no longer borrows. If every candidate is of its own queue the pending Workload may borrow;
 * otherwise it may reclaim from the cohort only while its queue is under its nominal quota in every resource needing
 * preemption, and it must then fit without borrowing; last, its own queue's Workloads with borrowing. Of the removed
 * candidates, those not needed are put back (the last one removed is always needed). {@code borrowWithinCohort} and
 * fair sharing are not modelled: gpuaas's queues set {@code borrowWithinCohort: Never}.
 */
final class Preemptor {

    /** Kueue's reason for a Workload of the same ClusterQueue. */
    static final String IN_CLUSTER_QUEUE = "InClusterQueue";
    /** Kueue's reason for a borrowing Workload of another ClusterQueue of the cohort. */
    static final String IN_COHORT_RECLAMATION = "InCohortReclamation";

    private final QuotaModel model;

    Preemptor(QuotaModel model) {
        this.model = model;
    }

    /**
     * An admitted Workload as preemption sees it.
     *
     * @param key          namespace/name
     * @param clusterQueue where it holds quota
     * @param priority     its priority
     * @param created      creation timestamp (ISO-8601), for {@code LowerOrNewerEqualPriority}
     * @param admittedAt   when its quota was reserved (ISO-8601), the most recent is evicted first
     * @param podSets      its admission's flavors and usage
     */
    record Running(
            String key,
            String clusterQueue,
            int priority,
            String created,
            String admittedAt,
            List<PodSetAssignment> podSets) {

        boolean uses(Set<Key> keys) {
            return podSets.stream().anyMatch(p -> p.resourceUsage().keySet().stream()
                    .anyMatch(r -> keys.contains(new Key(p.flavors().get(r), r))));
        }
    }

    /** One Workload to evict and Kueue's reason for it. */
    record Target(Running workload, String reason) {}

    /** The assignment the pending Workload gets once {@code targets} are evicted. */
    record Plan(List<PodSetAssignment> podSets, List<Target> targets) {}

    /**
     * What to evict so that a pending Workload of {@code clusterQueue} fits; empty when it already fits, or when no
     * allowed set of evictions makes it fit. The model is left as it was.
     */
    Optional<Plan> plan(
            String clusterQueue, int priority, String created, List<PodSetDemand> podSets, List<Running> admitted) {
        Optional<PreemptionAssignment> assignment = model.assignWithPreemption(clusterQueue, podSets);
        if (assignment.isEmpty() || assignment.get().needing().isEmpty()) {
            return Optional.empty();
        }
        PreemptionAssignment wanted = assignment.get();
        QueueQuota queue = model.queue(clusterQueue).orElseThrow();
        List<Running> candidates = candidates(queue, priority, created, wanted.needing(), admitted);
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        List<Running> sameQueue = candidates.stream()
                .filter(c -> c.clusterQueue().equals(clusterQueue))
                .toList();
        List<Target> targets;
        if (sameQueue.size() == candidates.size()) {
            targets = minimal(clusterQueue, wanted, candidates, true);
        } else {
            targets = underNominal(clusterQueue, wanted.needing())
                    ? minimal(clusterQueue, wanted, candidates, false)
                    : List.of();
            if (targets.isEmpty()) {
                targets = minimal(clusterQueue, wanted, sameQueue, true);
            }
        }
        return targets.isEmpty() ? Optional.empty() : Optional.of(new Plan(wanted.podSets(), targets));
    }

    private List<Running> candidates(
            QueueQuota queue, int priority, String created, Set<Key> needing, List<Running> admitted) {
        List<Running> candidates = new ArrayList<>();
        PreemptionPolicy policy = queue.preemption();
        for (Running running : admitted) {
            if (!running.uses(needing)) {
                continue;
            }
            if (running.clusterQueue().equals(queue.name())) {
                if (withinQueue(policy.withinClusterQueue(), priority, created, running)) {
                    candidates.add(running);
                }
                continue;
            }
            boolean sameCohort = queue.cohort().isPresent()
                    && model.queue(running.clusterQueue())
                            .flatMap(QueueQuota::cohort)
                            .equals(queue.cohort());
            if (sameCohort
                    && borrowingAny(running.clusterQueue(), needing)
                    && reclaim(policy.reclaimWithinCohort(), priority, running)) {
                candidates.add(running);
            }
        }
        candidates.sort(order(queue.name()));
        return candidates;
    }

    private static boolean withinQueue(String policy, int priority, String created, Running running) {
        return switch (policy) {
            case PreemptionPolicy.LOWER_PRIORITY -> running.priority() < priority;
            case PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY ->
                running.priority() < priority
                        || (running.priority() == priority && created.compareTo(running.created()) < 0);
            default -> false;
        };
    }

    private static boolean reclaim(String policy, int priority, Running running) {
        return switch (policy) {
            case PreemptionPolicy.ANY -> true;
            case PreemptionPolicy.LOWER_PRIORITY -> running.priority() < priority;
            default -> false;
        };
    }

    /** Other queues first, then lower priority, then the most recently admitted, then by key. */
    static Comparator<Running> order(String clusterQueue) {
        return Comparator.comparing((Running r) -> r.clusterQueue().equals(clusterQueue))
                .thenComparingInt(Running::priority)
                .thenComparing(Running::admittedAt, Comparator.reverseOrder())
                .thenComparing(Running::key);
    }

    private List<Target> minimal(
            String clusterQueue, PreemptionAssignment wanted, List<Running> candidates, boolean allowBorrowing) {
        List<Target> removed = new ArrayList<>();
        boolean fits = false;
        for (Running candidate : candidates) {
            boolean sameQueue = candidate.clusterQueue().equals(clusterQueue);
            // A queue that gave back what it borrowed is no longer a source of reclaim.
            if (!sameQueue && !borrowingAny(candidate.clusterQueue(), wanted.needing())) {
                continue;
            }
            model.release(candidate.clusterQueue(), candidate.podSets());
            removed.add(new Target(candidate, sameQueue ? IN_CLUSTER_QUEUE : IN_COHORT_RECLAMATION));
            if (model.fits(clusterQueue, wanted.request(), allowBorrowing)) {
                fits = true;
                break;
            }
        }
        if (!fits) {
            removed.forEach(
                    t -> model.charge(t.workload().clusterQueue(), t.workload().podSets()));
            return List.of();
        }
        // Put back, newest removal first, every candidate the pending Workload still fits without.
        List<Target> targets = new ArrayList<>(removed);
        for (int i = removed.size() - 2; i >= 0; i--) {
            Target target = removed.get(i);
            model.charge(target.workload().clusterQueue(), target.workload().podSets());
            if (model.fits(clusterQueue, wanted.request(), allowBorrowing)) {
                targets.remove(target);
            } else {
                model.release(
                        target.workload().clusterQueue(), target.workload().podSets());
            }
        }
        targets.forEach(
                t -> model.charge(t.workload().clusterQueue(), t.workload().podSets()));
        return List.copyOf(targets);
    }

    private boolean borrowingAny(String clusterQueue, Set<Key> keys) {
        return keys.stream().anyMatch(k -> model.borrowing(clusterQueue, k));
    }

    private boolean underNominal(String clusterQueue, Set<Key> keys) {
        return keys.stream()
                .allMatch(k -> model.used(clusterQueue, k.flavor(), k.resource()) < model.nominal(clusterQueue, k));
    }
}
