package io.gpuaas.booking.http;

import io.gpuaas.booking.config.HttpLimits;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.model.Approvals;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code GET /bookings}: the caller's bookings (an admin's: everyone's) from the local view, filtered, ordered by
 * start then id, cut into pages with an opaque cursor (the sort key of the last item).
 */
@Singleton
public class BookingQuery {

    private static final Comparator<Booking> ORDER =
            Comparator.comparing(Booking::start).thenComparing(Booking::id);

    private final BookingView view;
    private final HttpLimits limits;
    private final Approvals approvals;

    public BookingQuery(BookingView view, HttpLimits limits, PoolCatalog pools) {
        this.view = view;
        this.limits = limits;
        this.approvals = new Approvals(pools);
    }

    /** Filters; every one is optional. {@code from}/{@code to} keep bookings whose window overlaps them. */
    public record Filter(String state, String pool, Instant from, Instant to) {}

    /**
     * One page; {@code nextCursor} is null on the last page. {@code holdUntil} names, for each item awaiting approval,
     * when its hold runs out (it expires then unless an admin decides), computed from the booking and the pool
     * catalog as the decider does; empty when no item awaits approval.
     */
    @Introspected
    public record Page(List<Booking> items, String nextCursor, Map<String, Instant> holdUntil) {}

    /** Items per page when the caller does not say. */
    static final int DEFAULT_PAGE_SIZE = 50;

    /** One page of at most {@code limit} (1 to {@code max-page-size}, default 50) items after {@code cursor}. */
    public Page page(Caller caller, Filter filter, String limit, String cursor) {
        int size = RequestValidator.integer(
                "INVALID_PAGE_SIZE", "limit", limit, 1, limits.maxPageSize(), DEFAULT_PAGE_SIZE);
        Predicate<Booking> keep = visibleTo(caller).and(matching(filter));
        Booking after = cursor == null ? null : decode(cursor);
        List<Booking> items = view.all().stream()
                .filter(keep)
                .filter(b -> after == null || ORDER.compare(b, after) > 0)
                .sorted(ORDER)
                .limit(size + 1L)
                .toList();
        if (items.size() <= size) {
            return new Page(items, null, holds(items));
        }
        List<Booking> page = items.subList(0, size);
        return new Page(page, encode(page.getLast()), holds(page));
    }

    /** Item id → the end of its approval hold, for the items awaiting approval, in the page's order. */
    private Map<String, Instant> holds(List<Booking> items) {
        Map<String, Instant> holds = new LinkedHashMap<>();
        for (Booking b : items) {
            if (b.state() == BookingState.PENDING_APPROVAL) {
                holds.put(b.id(), approvals.holdUntil(b));
            }
        }
        return holds;
    }

    private static Predicate<Booking> visibleTo(Caller caller) {
        return b -> caller.admin() || b.tenant().equals(caller.tenant());
    }

    private static Predicate<Booking> matching(Filter f) {
        BookingState state = parseState(f.state());
        return b -> (state == null || b.state() == state)
                && (f.pool() == null || f.pool().equals(b.pool()))
                && (f.from() == null || b.end().isAfter(f.from()))
                && (f.to() == null || b.start().isBefore(f.to()));
    }

    private static BookingState parseState(String state) {
        if (state == null) {
            return null;
        }
        try {
            return BookingState.valueOf(state.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ProblemException.badRequest(
                    "INVALID_STATE_FILTER", "state", "state must be one of " + List.of(BookingState.values()));
        }
    }

    private static String encode(Booking last) {
        String key = last.start().toEpochMilli() + "|" + last.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    /** A stand-in booking carrying only the sort key of the cursor. */
    private static Booking decode(String cursor) {
        try {
            String key = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int bar = key.indexOf('|');
            Instant start = Instant.ofEpochMilli(Long.parseLong(key.substring(0, bar)));
            return new Booking(
                    key.substring(bar + 1),
                    null,
                    null,
                    null,
                    null,
                    null,
                    0,
                    start,
                    start,
                    null,
                    BookingState.CONFIRMED,
                    null,
                    null,
                    null,
                    0);
        } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
            throw ProblemException.badRequest("INVALID_CURSOR", "cursor", "cursor is not one this API returned");
        }
    }
}
