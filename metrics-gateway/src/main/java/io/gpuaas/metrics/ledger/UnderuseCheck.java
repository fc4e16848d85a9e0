package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.metrics.config.UnderuseSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which bookings are under-used at a ledger's cut: pure, from the ledger's per-minute device time alone, so every
 * replica (and a new leader) decides the same. A booking counts when it held its units over the whole window before
 * the cut ({@code [cut - window, cut)}) and is ACTIVE (started, not ended or released); its busy share is its busy device-time in those
 * minutes over {@code quantity × window}. The notice's id names the booking and the suppression period the cut falls
 * in, counted from the booking's start, so copies of one notice have one id.
 */
public final class UnderuseCheck {

    private static final double MILLIS_PER_HOUR = 3_600_000.0;

    private UnderuseCheck() {}

    public static List<Notice.BookingUnderused> at(Ledger ledger, UnderuseSettings settings) {
        Instant cut = ledger.cut();
        List<Notice.BookingUnderused> out = new ArrayList<>();
        if (cut == null) {
            return out;
        }
        for (BookingLedger entry : ledger.bookings().values()) {
            check(entry, cut, settings.window(), settings.threshold(), settings.suppression())
                    .ifPresent(out::add);
        }
        out.sort((a, b) -> a.bookingId().compareTo(b.bookingId()));
        return out;
    }

    static java.util.Optional<Notice.BookingUnderused> check(
            BookingLedger entry, Instant cut, Duration window, double threshold, Duration suppression) {
        Booking booking = entry.facts().booking();
        Instant from = cut.minus(window);
        // ACTIVE only: a CONFIRMED booking has not started (or its start was never seen), so it has nothing to use yet.
        boolean holding = booking.state() == BookingState.ACTIVE
                && !booking.start().isAfter(from)
                && !entry.facts().heldEnd().isBefore(cut)
                && booking.quantity() > 0;
        if (!holding) {
            return java.util.Optional.empty();
        }
        long busyMillis = 0;
        for (Map.Entry<Long, long[]> minute : entry.minutes()
                .subMap(from.toEpochMilli(), true, cut.toEpochMilli(), false)
                .entrySet()) {
            busyMillis += minute.getValue()[0];
        }
        double bookedMillis = (double) booking.quantity() * window.toMillis();
        double share = busyMillis / bookedMillis;
        if (share >= threshold) {
            return java.util.Optional.empty();
        }
        long periods = Duration.between(booking.start(), cut).toMillis() / suppression.toMillis();
        Instant since = booking.start().plus(suppression.multipliedBy(periods));
        return java.util.Optional.of(new Notice.BookingUnderused(
                Notice.underusedId(booking.id(), since),
                booking.id(),
                booking.tenant(),
                booking.namespace(),
                booking.pool(),
                booking.quantity(),
                round(share),
                threshold,
                round(busyMillis * entry.weight() / MILLIS_PER_HOUR),
                round(bookedMillis * entry.weight() / MILLIS_PER_HOUR),
                from,
                window,
                cut));
    }

    private static double round(double v) {
        return Math.round(v * 1e6) / 1e6;
    }
}
