package io.gpuaas.quota.model;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The booking notices to show now, per booking: every one read whose projected time has not passed when it was read,
 * until the loop has taken its annotation off after that time. Read from a topic with a 7-day retention, so at most a
 * few per booking of the last week.
 */
public final class BookingNotices {

    private final Map<String, Map<String, BookingNotice>> byBooking = new ConcurrentHashMap<>();

    /** Keeps {@code notice} unless it is already over at {@code now} (an old notice read again after a restart). */
    public boolean add(BookingNotice notice, Instant now) {
        if (notice.over(now)) {
            return false;
        }
        byBooking
                .computeIfAbsent(notice.bookingId(), id -> new ConcurrentHashMap<>())
                .put(notice.noticeId(), notice);
        return true;
    }

    /** The booking's notices, oldest decision first (a later one of the same annotation is shown over it). */
    public List<BookingNotice> of(String bookingId) {
        Map<String, BookingNotice> notices = byBooking.get(bookingId);
        return notices == null
                ? List.of()
                : notices.values().stream()
                        .sorted(Comparator.comparing(BookingNotice::decidedAt).thenComparing(BookingNotice::noticeId))
                        .toList();
    }

    /** The notice is over and shown no more. */
    public void forget(BookingNotice notice) {
        byBooking.computeIfPresent(notice.bookingId(), (id, notices) -> {
            notices.remove(notice.noticeId());
            return notices.isEmpty() ? null : notices;
        });
    }

    /** Forgets every notice over at {@code now} (a follower, which takes no annotation off, keeps no old ones). */
    public void dropOver(Instant now) {
        byBooking.values().forEach(notices -> notices.values().removeIf(n -> n.over(now)));
        byBooking.values().removeIf(Map::isEmpty);
    }

    /** Bookings with a notice to show (the loop's resync). */
    public List<String> bookings() {
        return List.copyOf(byBooking.keySet());
    }
}
