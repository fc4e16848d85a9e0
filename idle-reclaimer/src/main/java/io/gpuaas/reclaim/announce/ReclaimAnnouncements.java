package io.gpuaas.reclaim.announce;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which reclaim is announced on each workload now: its latest ReclaimPending, unless a withdrawal of that window or a
 * later one was seen. Fed from two topics read in no common order (a withdrawal may be read before its notice), so
 * it keeps the latest withdrawn window start per workload rather than forgetting a notice when it is withdrawn.
 */
public final class ReclaimAnnouncements {

    private record Entry(Notice.ReclaimPending latest, Instant withdrawnUpTo) {}

    private final Map<WorkloadRef, Entry> byWorkload = new ConcurrentHashMap<>();

    /** A notice was sent; an older one of the same workload is superseded. */
    public void announced(Notice.ReclaimPending notice) {
        byWorkload.merge(notice.workload(), new Entry(notice, null), (old, add) -> {
            boolean newer = old.latest() == null
                    || add.latest().idleSince().isAfter(old.latest().idleSince());
            return new Entry(newer ? add.latest() : old.latest(), old.withdrawnUpTo());
        });
    }

    /**
     * A window of the workload ended without a reclaim, or a reclaimed workload woke up: any notice of a window that
     * began at or before it is over. A window id without a readable start withdraws nothing.
     */
    public void withdrawn(WorkloadRef ref, String windowId) {
        Instant start = windowStart(windowId);
        if (start == null) {
            return;
        }
        byWorkload.merge(ref, new Entry(null, start), (old, add) -> {
            Instant upTo =
                    old.withdrawnUpTo() == null || start.isAfter(old.withdrawnUpTo()) ? start : old.withdrawnUpTo();
            return new Entry(old.latest(), upTo);
        });
    }

    /** The notice the workload should show, if any. */
    public Optional<Notice.ReclaimPending> current(WorkloadRef ref) {
        Entry entry = byWorkload.get(ref);
        if (entry == null || entry.latest() == null) {
            return Optional.empty();
        }
        Instant upTo = entry.withdrawnUpTo();
        boolean over = upTo != null && !upTo.isBefore(entry.latest().idleSince());
        return over ? Optional.empty() : Optional.of(entry.latest());
    }

    /** Workloads announced now: the loop looks at them again from time to time, to see a resume. */
    public List<WorkloadRef> announcedWorkloads() {
        return byWorkload.keySet().stream()
                .filter(ref -> current(ref).isPresent())
                .toList();
    }

    /** {@code namespace/kind/name@<window start>} → the start. */
    static Instant windowStart(String windowId) {
        int at = windowId.lastIndexOf('@');
        if (at < 0) {
            return null;
        }
        try {
            return Instant.parse(windowId.substring(at + 1));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
