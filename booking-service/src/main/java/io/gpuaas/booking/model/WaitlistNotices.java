package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.notice.Notice;
import java.util.ArrayList;
import java.util.List;

/** The notices a decision's waitlist events call for: one per entry booked, one per entry expired. */
public final class WaitlistNotices {

    private WaitlistNotices() {}

    public static List<Notice> of(List<BookingEvent> events) {
        List<Notice> out = new ArrayList<>();
        for (BookingEvent event : events) {
            if (!(event instanceof BookingEvent.WaitlistEnded ended)) {
                continue;
            }
            WaitlistEntry e = ended.entry();
            switch (e.state()) {
                case BOOKED ->
                    confirmed(events, e.id())
                            .forEach(b -> out.add(new Notice.WaitlistBooked(
                                    Notice.waitlistBookedId(e.id()),
                                    e.id(),
                                    e.tenant(),
                                    e.namespace(),
                                    e.pool(),
                                    e.quantity(),
                                    b.start(),
                                    b.end(),
                                    e.createdAt(),
                                    ended.time())));
                case EXPIRED ->
                    out.add(new Notice.WaitlistExpired(
                            Notice.waitlistExpiredId(e.id()),
                            e.id(),
                            e.tenant(),
                            e.namespace(),
                            e.pool(),
                            e.quantity(),
                            e.latestStart(),
                            e.createdAt(),
                            ended.time()));
                case WAITING, CANCELLED -> {}
            }
        }
        return out;
    }

    /** The record key of a waitlist notice: the entry's (and booking's) id. */
    public static String key(Notice notice) {
        return switch (notice) {
            case Notice.WaitlistBooked n -> n.bookingId();
            case Notice.WaitlistExpired n -> n.bookingId();
            default -> throw new IllegalArgumentException("not a waitlist notice: " + notice.noticeId());
        };
    }

    private static List<Booking> confirmed(List<BookingEvent> events, String bookingId) {
        return events.stream()
                .filter(ev -> ev instanceof BookingEvent.BookingConfirmed c
                        && c.booking().id().equals(bookingId))
                .map(ev -> ((BookingEvent.BookingConfirmed) ev).booking())
                .limit(1)
                .toList();
    }
}
