package io.gpuaas.quota.model;

import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Which condition transitions of which Workload were already published, so an informer resync or a restart
 * publishes none twice. A transition is identified by the Workload's uid and the condition's type, status, reason
 * and lastTransitionTime: Kueue moves lastTransitionTime only when the status flips, so the same tuple seen again
 * is the same transition. Each published record carries all conditions of its moment, so after a restart the
 * last record per key is enough to restore the ledger.
 */
public final class TransitionLedger {

    record ConditionId(String type, String status, String reason, Instant lastTransitionTime) {
        static ConditionId of(Condition c) {
            return new ConditionId(c.type(), c.status(), c.reason(), c.lastTransitionTime());
        }
    }

    private record Entry(String uid, Set<ConditionId> seen) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * The conditions of {@code uid} at {@code key} not yet published, oldest first, and records them as published.
     * A different uid under the same key is a re-created Workload: all its conditions are new.
     */
    public List<Condition> claimNew(String key, String uid, List<Condition> conditions) {
        List<List<Condition>> fresh = new java.util.ArrayList<>(1);
        // compute() makes claim atomic per key: the informer thread and a takeover replay may race on one Workload.
        entries.compute(key, (k, entry) -> {
            Set<ConditionId> known = entry != null && Objects.equals(entry.uid(), uid) ? entry.seen() : Set.of();
            fresh.add(conditions.stream()
                    .filter(c -> !known.contains(ConditionId.of(c)))
                    .sorted(Comparator.comparing(
                            Condition::lastTransitionTime, Comparator.nullsFirst(Comparator.naturalOrder())))
                    .toList());
            return new Entry(uid, ids(conditions));
        });
        return fresh.get(0);
    }

    /** Undoes a claim whose record could not be written, so the next notification retries it. */
    public void release(String key, String uid, Condition condition) {
        entries.computeIfPresent(key, (k, e) -> {
            if (!Objects.equals(e.uid(), uid)) {
                return e;
            }
            Set<ConditionId> seen = new HashSet<>(e.seen());
            seen.remove(ConditionId.of(condition));
            return new Entry(uid, Set.copyOf(seen));
        });
    }

    /** Replays one record read back from the workload topic at start. */
    public void restore(String key, WorkloadEvent event) {
        switch (event) {
            case WorkloadEvent.WorkloadObserved observed -> {
                Set<ConditionId> seen = new HashSet<>(ids(observed.conditions()));
                if (observed.transition() != null) {
                    seen.add(ConditionId.of(observed.transition()));
                }
                entries.put(key, new Entry(observed.uid(), Set.copyOf(seen)));
            }
            case WorkloadEvent.WorkloadDeleted deleted -> entries.remove(key);
            case WorkloadEvent.FeedWatermark mark -> {
                // Not a Workload: nothing to remember.
            }
        }
    }

    public void forget(String key) {
        entries.remove(key);
    }

    /** Key to uid of every Workload the topic says exists; used to publish deletions missed while down. */
    public Map<String, String> known() {
        return entries.entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey, e -> String.valueOf(e.getValue().uid())));
    }

    public int size() {
        return entries.size();
    }

    private static Set<ConditionId> ids(List<Condition> conditions) {
        return conditions.stream().map(ConditionId::of).collect(Collectors.toUnmodifiableSet());
    }
}
