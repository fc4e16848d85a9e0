package io.gpuaas.metrics.ledger;

import io.gpuaas.events.notice.Notice;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ids of the {@code BookingUnderused} notices already on {@code gpuaas.notices}: read back by the ledger's feed
 * (from the topic's start, so a restarted replica or a new leader knows what any leader sent) and added by the
 * publisher as it sends (before the feed reads them back). The feed's thread writes, the leader's task reads.
 */
public final class UnderuseSent {

    private final Map<String, Instant> sent = new ConcurrentHashMap<>();

    /** A record of the notices topic; only BookingUnderused counts. */
    public void apply(Notice notice) {
        if (notice instanceof Notice.BookingUnderused underused) {
            sent.put(underused.noticeId(), underused.time());
        }
    }

    public boolean contains(String noticeId) {
        return sent.containsKey(noticeId);
    }

    public void add(Notice.BookingUnderused notice) {
        sent.put(notice.noticeId(), notice.time());
    }

    /** Forgets notices decided before {@code before}: their period is over, no notice can have their id again. */
    public void forgetBefore(Instant before) {
        sent.values().removeIf(t -> t.isBefore(before));
    }

    /** A send that failed: the next run tries again. */
    public void remove(String noticeId) {
        sent.remove(noticeId);
    }

    public int size() {
        return sent.size();
    }
}
