package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.quota.model.FlavorResource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Keeps the quota in the cluster at or under physical capacity while a plan is applied, whatever order the writers
 * run in: shrinks go first because a growth has to wait for the room they leave.
 *
 * <p>For every object holding quota (the shared Cohort and each owned ClusterQueue) it knows what the cluster may
 * hold per cell: the newest observed state (an informer notification or the result of our own write) raised by a
 * write in flight. A write that shrinks a cell is always granted. A write that grows one is granted only when the
 * total of all objects, with this one at its new value, still fits the capacity; the reservation counts from then
 * until the write's result is observed, so two writers never take the same room. A ClusterQueue grows a cell all
 * at once or not at all; the Cohort takes what room there is (it gives capacity back as tenants' queues shrink).
 * A write held back is remembered and its key handed to {@code wake} as soon as some quota is freed.
 */
final class QuotaBudget {

    /** What an object may be written with now; {@code complete} when every cell got what the plan wants. */
    record Grant(SortedMap<FlavorResource, Long> cells, boolean complete) {}

    /** What the cluster holds for one object; a tombstone after our own delete ignores late notifications. */
    private record Held(String uid, long version, boolean deleted, Map<FlavorResource, Long> cells) {}

    private final String cohortName;
    private final Consumer<ObjectRef> wake;
    private final Map<ObjectRef, Held> observed = new HashMap<>();
    private final Map<ObjectRef, Map<FlavorResource, Long>> reserved = new HashMap<>();
    private final Map<FlavorResource, Long> total = new HashMap<>();
    private final Set<ObjectRef> waiting = new LinkedHashSet<>();

    QuotaBudget(String cohortName, Consumer<ObjectRef> wake) {
        this.cohortName = cohortName;
        this.wake = wake;
    }

    /** Informer listener: Cohort and ClusterQueue changes update what the cluster holds. */
    void onChange(Change change) {
        if (change.kind() != Kind.COHORT && change.kind() != Kind.CLUSTER_QUEUE) {
            return;
        }
        if (change.deleted()) {
            deleted(change.ref(), change.before());
        } else {
            observed(change.ref(), change.after());
        }
    }

    /** {@code object} as the cluster holds it now (a notification or our write's result). */
    void observed(ObjectRef ref, HasMetadata object) {
        List<ObjectRef> freed;
        synchronized (this) {
            Held current = observed.get(ref);
            String uid = object.getMetadata().getUid();
            long version = ClusterQueueWriter.version(object);
            if (current != null
                    && Objects.equals(current.uid(), uid)
                    && (current.deleted() || version < current.version())) {
                return; // older than what we know: our own write overtook the watch
            }
            Held next = holdsQuota(ref, object) ? new Held(uid, version, false, cells(object)) : null;
            freed = update(ref, () -> put(ref, next));
        }
        freed.forEach(wake);
    }

    /** The informer saw {@code last} deleted. */
    void deleted(ObjectRef ref, HasMetadata last) {
        List<ObjectRef> freed;
        synchronized (this) {
            Held current = observed.get(ref);
            if (current == null
                    || last != null
                            && !Objects.equals(current.uid(), last.getMetadata().getUid())) {
                return; // a newer object lives under this name
            }
            freed = update(ref, () -> observed.remove(ref));
        }
        freed.forEach(wake);
    }

    /** Our delete of {@code deleted} succeeded: it holds nothing any more, whatever late notifications say. */
    void deletedByUs(ObjectRef ref, HasMetadata deleted) {
        List<ObjectRef> freed;
        synchronized (this) {
            Held tombstone = new Held(deleted.getMetadata().getUid(), Long.MAX_VALUE, true, Map.of());
            freed = update(ref, () -> observed.put(ref, tombstone));
        }
        freed.forEach(wake);
    }

    /**
     * What {@code ref} may be written with to reach {@code wanted}; the grown cells stay reserved until
     * {@link #release}. A grant that is not complete puts {@code ref} on the waiting list.
     *
     * @param partial whether a cell may grow part of the way (the Cohort) or only all of it (a ClusterQueue)
     */
    synchronized Grant reserve(
            ObjectRef ref,
            SortedMap<FlavorResource, Long> wanted,
            SortedMap<FlavorResource, Long> capacity,
            boolean partial) {
        Map<FlavorResource, Long> now = effective(ref);
        SortedMap<FlavorResource, Long> granted = new TreeMap<>();
        boolean complete = true;
        for (FlavorResource cell : capacity.keySet()) {
            long want = wanted.getOrDefault(cell, 0L);
            long have = now.getOrDefault(cell, 0L);
            long room = Math.max(0, capacity.get(cell) - total.getOrDefault(cell, 0L));
            if (want <= have || want - have <= room) {
                granted.put(cell, want);
            } else {
                complete = false;
                granted.put(cell, partial ? have + room : have);
            }
        }
        if (!complete) {
            waiting.add(ref);
        }
        update(ref, () -> reserved.put(ref, granted));
        return new Grant(granted, complete);
    }

    /** The write of {@code ref} is over; {@code result} is the object as it is now (null: unknown or absent). */
    void release(ObjectRef ref, HasMetadata result) {
        if (result != null) {
            observed(ref, result);
        }
        List<ObjectRef> freed;
        synchronized (this) {
            freed = update(ref, () -> reserved.remove(ref));
        }
        freed.forEach(wake);
    }

    /** Units the cluster may hold in {@code cell} now, over every object (reservations included). */
    synchronized long total(FlavorResource cell) {
        return total.getOrDefault(cell, 0L);
    }

    /** Whether a write is held back or in flight. */
    synchronized boolean busy() {
        return !waiting.isEmpty() || !reserved.isEmpty();
    }

    private boolean holdsQuota(ObjectRef ref, HasMetadata object) {
        return ref.kind() == Kind.COHORT
                ? ref.name().equals(cohortName)
                : ref.kind() == Kind.CLUSTER_QUEUE && Ownership.owned(object);
    }

    private void put(ObjectRef ref, Held held) {
        if (held == null) {
            observed.remove(ref);
        } else {
            observed.put(ref, held);
        }
    }

    /** Applies {@code change} to {@code ref}, keeps the totals, and returns the waiting keys to wake if room grew. */
    private List<ObjectRef> update(ObjectRef ref, Runnable change) {
        Map<FlavorResource, Long> before = effective(ref);
        change.run();
        Map<FlavorResource, Long> after = effective(ref);
        boolean freed = false;
        Set<FlavorResource> cells = new LinkedHashSet<>(before.keySet());
        cells.addAll(after.keySet());
        for (FlavorResource cell : cells) {
            long delta = after.getOrDefault(cell, 0L) - before.getOrDefault(cell, 0L);
            total.merge(cell, delta, Long::sum);
            freed |= delta < 0;
        }
        if (!freed || waiting.isEmpty()) {
            return List.of();
        }
        List<ObjectRef> woken = new ArrayList<>(waiting);
        waiting.clear();
        return woken;
    }

    /** Per cell the larger of what is observed and what a write in flight may have set. */
    private Map<FlavorResource, Long> effective(ObjectRef ref) {
        Held held = observed.get(ref);
        Map<FlavorResource, Long> inFlight = reserved.get(ref);
        Map<FlavorResource, Long> cells = new HashMap<>(held == null ? Map.of() : held.cells());
        if (inFlight != null) {
            inFlight.forEach((cell, units) -> cells.merge(cell, units, Math::max));
        }
        return cells;
    }

    private static Map<FlavorResource, Long> cells(HasMetadata object) {
        Map<FlavorResource, Long> cells = new HashMap<>();
        NominalQuota.of(object).forEach((cell, units) -> cells.put(cell, units.longValue()));
        return cells;
    }
}
