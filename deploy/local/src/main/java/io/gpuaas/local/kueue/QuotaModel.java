package io.gpuaas.local.kueue;

import io.gpuaas.local.kueue.Admission.PodSetAssignment;
import io.gpuaas.local.model.PodSetDemand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Kueue's quota arithmetic for one admission pass. A queue may use its nominal quota; in a cohort it may also borrow
 * from the cohort's shared pool, which holds the cohort's own nominalQuota plus whatever each member lends (all of its
 * nominal quota unless a lendingLimit keeps part of it), up to its borrowingLimit. Flavors are tried in the order the
 * ClusterQueue lists them. What preemption needs of it (a flavor assignment that would fit once others give room,
 * taking usage away and back, whether a queue borrows) is here; which Workloads to evict is {@link Preemptor}'s.
 */
public final class QuotaModel {

    private final Map<String, QueueQuota> queues;
    private final Map<String, Map<Key, Long>> cohortNominal;
    private final Map<String, Map<Key, Long>> usage = new HashMap<>();

    /** A (flavor, resource) pair. */
    record Key(String flavor, String resource) {}

    /**
     * @param queues        ClusterQueues by name
     * @param cohortQuotas  each cohort's own quotas
     */
    public QuotaModel(Map<String, QueueQuota> queues, Map<String, List<FlavorQuota>> cohortQuotas) {
        this.queues = Map.copyOf(queues);
        this.cohortNominal = new HashMap<>();
        cohortQuotas.forEach((cohort, quotas) -> quotas.forEach(q -> cohortNominal
                .computeIfAbsent(cohort, c -> new HashMap<>())
                .merge(new Key(q.flavor(), q.resource()), q.nominal(), Long::sum)));
    }

    /** Counts the usage of an already admitted workload. */
    public void charge(String clusterQueue, List<PodSetAssignment> assignments) {
        Map<Key, Long> queueUsage = usage.computeIfAbsent(clusterQueue, q -> new HashMap<>());
        for (PodSetAssignment assignment : assignments) {
            assignment
                    .resourceUsage()
                    .forEach((resource, units) ->
                            queueUsage.merge(new Key(assignment.flavors().get(resource), resource), units, Long::sum));
        }
    }

    /** Takes back the usage of a workload that no longer holds quota (preempted, or simulated so). */
    public void release(String clusterQueue, List<PodSetAssignment> assignments) {
        Map<Key, Long> queueUsage = usage.computeIfAbsent(clusterQueue, q -> new HashMap<>());
        for (PodSetAssignment assignment : assignments) {
            assignment
                    .resourceUsage()
                    .forEach((resource, units) ->
                            queueUsage.merge(new Key(assignment.flavors().get(resource), resource), -units, Long::sum));
        }
    }

    /** Units of (flavor, resource) the admitted workloads of {@code clusterQueue} use. */
    public long used(String clusterQueue, String flavor, String resource) {
        return usage.getOrDefault(clusterQueue, Map.of()).getOrDefault(new Key(flavor, resource), 0L);
    }

    /** Admits {@code podSets} into {@code clusterQueue} if they fit, charging the usage; else says why not. */
    public Admission tryAdmit(String clusterQueue, List<PodSetDemand> podSets) {
        QueueQuota queue = queues.get(clusterQueue);
        if (queue == null) {
            return new Admission.Pending("Inadmissible", "ClusterQueue " + clusterQueue + " doesn't exist");
        }
        if (queue.stopped()) {
            return new Admission.Pending("Inadmissible", "ClusterQueue " + clusterQueue + " is inactive");
        }
        Map<Key, Long> tentative = new HashMap<>();
        List<PodSetAssignment> assignments = new ArrayList<>();
        for (PodSetDemand podSet : podSets) {
            Map<String, String> flavors = new LinkedHashMap<>();
            Map<String, Long> resourceUsage = new LinkedHashMap<>();
            // In name order: the first resource that cannot be assigned is the one the condition names.
            for (String resource : new TreeSet<>(podSet.perPod().keySet())) {
                long units = podSet.total(resource);
                if (units == 0) {
                    continue;
                }
                Optional<FlavorQuota> chosen = choose(queue, resource, units, tentative);
                if (chosen.isEmpty()) {
                    return pending(queue, podSet.name(), resource, units, tentative);
                }
                tentative.merge(new Key(chosen.get().flavor(), resource), units, Long::sum);
                flavors.put(resource, chosen.get().flavor());
                resourceUsage.put(resource, units);
            }
            assignments.add(new PodSetAssignment(podSet.name(), podSet.count(), flavors, resourceUsage));
        }
        charge(clusterQueue, assignments);
        return new Admission.Admitted(clusterQueue, assignments);
    }

    /** The queue named, if it exists. */
    Optional<QueueQuota> queue(String clusterQueue) {
        return Optional.ofNullable(queues.get(clusterQueue));
    }

    /** Nominal quota of {@code clusterQueue} on {@code key}, 0 where it lists none. */
    long nominal(String clusterQueue, Key key) {
        QueueQuota queue = queues.get(clusterQueue);
        FlavorQuota quota = queue == null ? null : quotaOf(queue, key);
        return quota == null ? 0 : quota.nominal();
    }

    /** Kueue's {@code Borrowing(fr)}: a queue in a cohort using more than its nominal quota of {@code key}. */
    boolean borrowing(String clusterQueue, Key key) {
        QueueQuota queue = queues.get(clusterQueue);
        return queue != null
                && queue.cohort().isPresent()
                && used(clusterQueue, key.flavor(), key.resource()) > nominal(clusterQueue, key);
    }

    /**
     * Whether {@code request} fits {@code clusterQueue} now; without {@code allowBorrowing} also within its nominal
     * quota (Kueue's {@code workloadFits}).
     */
    boolean fits(String clusterQueue, Map<Key, Long> request, boolean allowBorrowing) {
        QueueQuota queue = queues.get(clusterQueue);
        for (Map.Entry<Key, Long> entry : request.entrySet()) {
            Key key = entry.getKey();
            FlavorQuota quota = quotaOf(queue, key);
            if (quota == null) {
                return false;
            }
            long used = used(clusterQueue, key.flavor(), key.resource());
            if (!allowBorrowing && used + entry.getValue() > quota.nominal()) {
                return false;
            }
            if (shortfall(queue, quota, entry.getValue()) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A flavor per resource for {@code podSets} that fits once other Workloads give room: per resource the first
     * flavor that fits now, else the first whose units fit the queue's own reach (nominal plus what it may borrow of
     * the cohort's whole quota), which is then a resource that needs preemption. Empty when some resource fits no
     * flavor even on an empty cohort.
     */
    Optional<PreemptionAssignment> assignWithPreemption(String clusterQueue, List<PodSetDemand> podSets) {
        QueueQuota queue = queues.get(clusterQueue);
        if (queue == null || queue.stopped()) {
            return Optional.empty();
        }
        Map<Key, Long> tentative = new HashMap<>();
        List<PodSetAssignment> assignments = new ArrayList<>();
        java.util.Set<Key> needing = new java.util.TreeSet<>(
                java.util.Comparator.comparing(Key::flavor).thenComparing(Key::resource));
        for (PodSetDemand podSet : podSets) {
            Map<String, String> flavors = new LinkedHashMap<>();
            Map<String, Long> resourceUsage = new LinkedHashMap<>();
            for (String resource : new TreeSet<>(podSet.perPod().keySet())) {
                long units = podSet.total(resource);
                if (units == 0) {
                    continue;
                }
                Optional<FlavorQuota> chosen = choose(queue, resource, units, tentative);
                if (chosen.isEmpty()) {
                    chosen = queue.quotas().stream()
                            .filter(q -> q.resource().equals(resource))
                            .filter(q -> units + tentative.getOrDefault(new Key(q.flavor(), resource), 0L)
                                    <= reach(queue, q))
                            .findFirst();
                    if (chosen.isEmpty()) {
                        return Optional.empty();
                    }
                    needing.add(new Key(chosen.get().flavor(), resource));
                }
                tentative.merge(new Key(chosen.get().flavor(), resource), units, Long::sum);
                flavors.put(resource, chosen.get().flavor());
                resourceUsage.put(resource, units);
            }
            assignments.add(new PodSetAssignment(podSet.name(), podSet.count(), flavors, resourceUsage));
        }
        return Optional.of(new PreemptionAssignment(assignments, Map.copyOf(tentative), needing));
    }

    /**
     * An assignment that needs preemption.
     *
     * @param podSets the flavor and usage per pod set, as admission would write them
     * @param request total units per (flavor, resource)
     * @param needing the (flavor, resource) pairs that do not fit without evicting someone
     */
    record PreemptionAssignment(List<PodSetAssignment> podSets, Map<Key, Long> request, java.util.Set<Key> needing) {}

    // The most a queue could use of a flavor/resource with the whole cohort free to it.
    private long reach(QueueQuota queue, FlavorQuota quota) {
        if (queue.cohort().isEmpty()) {
            return quota.nominal();
        }
        Key key = new Key(quota.flavor(), quota.resource());
        long pool = cohortNominal.getOrDefault(queue.cohort().get(), Map.of()).getOrDefault(key, 0L);
        for (QueueQuota member : queues.values()) {
            FlavorQuota memberQuota = member.cohort().equals(queue.cohort()) ? quotaOf(member, key) : null;
            pool += memberQuota == null ? 0 : memberQuota.lendable();
        }
        long borrowCap = quota.borrowingLimit() == null ? Long.MAX_VALUE : quota.nominal() + quota.borrowingLimit();
        return Math.min(borrowCap, quota.guaranteed() + pool);
    }

    private Optional<FlavorQuota> choose(QueueQuota queue, String resource, long units, Map<Key, Long> tentative) {
        return queue.quotas().stream()
                .filter(q -> q.resource().equals(resource))
                .filter(q ->
                        shortfall(queue, q, units + tentative.getOrDefault(new Key(q.flavor(), resource), 0L)) == 0)
                .findFirst();
    }

    private Admission pending(QueueQuota queue, String podSet, String resource, long units, Map<Key, Long> tentative) {
        List<FlavorQuota> candidates = queue.quotas().stream()
                .filter(q -> q.resource().equals(resource))
                .toList();
        if (candidates.isEmpty()) {
            // Kueue's scheduler: QuotaReserved False, reason Pending, this message (no queue name in it).
            return new Admission.Pending(
                    "Pending",
                    "couldn't assign flavors to pod set " + podSet + ": resource " + resource
                            + " unavailable in ClusterQueue");
        }
        FlavorQuota first = candidates.getFirst();
        long missing = shortfall(queue, first, units + tentative.getOrDefault(new Key(first.flavor(), resource), 0L));
        return new Admission.Pending(
                "Pending",
                "couldn't assign flavors to pod set " + podSet
                        + ": insufficient unused quota for " + resource + " in flavor " + first.flavor() + ", "
                        + ResourceUnits.format(resource, missing) + " more needed");
    }

    /** How many units are missing for {@code queue} to take {@code extra} more of {@code quota}'s flavor/resource. */
    long shortfall(QueueQuota queue, FlavorQuota quota, long extra) {
        Key key = new Key(quota.flavor(), quota.resource());
        long used = usage.getOrDefault(queue.name(), Map.of()).getOrDefault(key, 0L);
        if (queue.cohort().isEmpty()) {
            return Math.max(0, used + extra - quota.nominal());
        }
        long borrowCap = quota.borrowingLimit() == null ? Long.MAX_VALUE : quota.nominal() + quota.borrowingLimit();
        long overBorrow = Math.max(0, used + extra - borrowCap);
        String cohort = queue.cohort().get();
        long pool = cohortNominal.getOrDefault(cohort, Map.of()).getOrDefault(key, 0L);
        long poolUsed = 0;
        for (QueueQuota member : queues.values()) {
            if (!member.cohort().equals(queue.cohort())) {
                continue;
            }
            FlavorQuota memberQuota = quotaOf(member, key);
            long guaranteed = memberQuota == null ? 0 : memberQuota.guaranteed();
            pool += memberQuota == null ? 0 : memberQuota.lendable();
            poolUsed += Math.max(0, usage.getOrDefault(member.name(), Map.of()).getOrDefault(key, 0L) - guaranteed);
        }
        long delta = Math.max(0, used + extra - quota.guaranteed()) - Math.max(0, used - quota.guaranteed());
        return Math.max(overBorrow, Math.max(0, poolUsed + delta - pool));
    }

    private static FlavorQuota quotaOf(QueueQuota queue, Key key) {
        return queue.quotas().stream()
                .filter(q -> q.flavor().equals(key.flavor()) && q.resource().equals(key.resource()))
                .findFirst()
                .orElse(null);
    }
}
