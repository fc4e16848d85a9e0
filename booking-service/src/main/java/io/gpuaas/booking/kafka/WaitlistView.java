package io.gpuaas.booking.kafka;

import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The read side of the waitlist: the latest state of every entry, from the compacted {@code waitlist} topic and from
 * the waitlist events this instance sees on {@code booking-events}. The two arrive in any order, so an entry that has
 * left the waitlist never reads as waiting again. Held by {@link BookingView} and fed by the booking feed.
 */
public final class WaitlistView {

    private final Map<String, WaitlistEntry> byId = new ConcurrentHashMap<>();

    /** Applies {@code entry} unless the view already holds a later state of it. */
    public void upsert(WaitlistEntry entry) {
        byId.merge(entry.id(), entry, (current, next) -> later(current, next) ? current : next);
    }

    /** The entry a waitlist event carries, if it is one. */
    void apply(BookingEvent event) {
        switch (event) {
            case BookingEvent.BookingWaitlisted w -> upsert(w.entry());
            case BookingEvent.WaitlistEnded e -> upsert(e.entry());
            default -> {}
        }
    }

    public Optional<WaitlistEntry> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Collection<WaitlistEntry> all() {
        return byId.values();
    }

    /** Whether {@code current} is a later state than {@code next}: ended beats waiting, then the newer update. */
    private static boolean later(WaitlistEntry current, WaitlistEntry next) {
        if (current.state().waiting() != next.state().waiting()) {
            return !current.state().waiting();
        }
        return current.updatedAt().isAfter(next.updatedAt());
    }
}
