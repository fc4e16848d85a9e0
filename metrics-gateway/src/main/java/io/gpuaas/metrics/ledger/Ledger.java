package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageDaily.Figures;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The computed ledger: every booking's figures per UTC day, and the views the API, the counters and the daily
 * topic read. Figures leave here rounded to 6 decimals of a GPU-hour (3.6 ms of one GPU), summed over bookings in
 * booking id order, so two ledgers folded from the same records give the same rows to the digit.
 *
 * @param bookings booking id to its ledger, in id order
 * @param version  input records folded
 * @param asOf     latest event time among them, null before the first
 */
public record Ledger(Map<String, BookingLedger> bookings, long version, Instant asOf) {

    /** One tenant's figures on one pool and UTC day. */
    public record DayRow(String tenant, LocalDate day, String pool, Figures figures) {}

    /** One booking's figures over the asked days, with what identifies it. */
    public record BookingRow(Booking booking, String releaseReason, Instant releasedAt, Figures figures) {}

    /** Rows per tenant, day in {@code [from, to)} and pool, sorted by those, for the tenants {@code tenants} admits. */
    public List<DayRow> days(LocalDate from, LocalDate to, Predicate<String> tenants) {
        Map<String, Figures> sums = new TreeMap<>();
        for (BookingLedger b : bookings.values()) {
            Booking booking = b.facts().booking();
            if (!tenants.test(booking.tenant())) {
                continue;
            }
            b.days()
                    .subMap(from, true, to, false)
                    .keySet()
                    .forEach(day -> sums.merge(
                            booking.tenant() + '\u0000' + day + '\u0000' + booking.pool(),
                            b.figures(day),
                            Figures::plus));
        }
        List<DayRow> rows = new ArrayList<>();
        sums.forEach((key, figures) -> {
            String[] parts = key.split("\u0000", 3);
            rows.add(new DayRow(parts[0], LocalDate.parse(parts[1]), parts[2], rounded(figures)));
        });
        return rows;
    }

    /**
     * One row per booking of the admitted tenants whose booked window overlaps {@code [from, to)} or that has a
     * figure in it, sorted by tenant, start and id; figures of those days only.
     */
    public List<BookingRow> bookings(LocalDate from, LocalDate to, Predicate<String> tenants) {
        Instant fromInstant = from.atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
        Instant toInstant = to.atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
        List<BookingRow> rows = new ArrayList<>();
        for (BookingLedger b : bookings.values()) {
            Booking booking = b.facts().booking();
            boolean overlaps =
                    booking.start().isBefore(toInstant) && booking.end().isAfter(fromInstant);
            boolean figures = !b.days().subMap(from, true, to, false).isEmpty();
            if (tenants.test(booking.tenant()) && (overlaps || figures)) {
                var reason = b.facts().releaseReason();
                rows.add(new BookingRow(
                        booking,
                        reason == null ? null : reason.name(),
                        reason == null ? null : b.facts().heldEnd(),
                        rounded(b.figures(from, to))));
            }
        }
        rows.sort(Comparator.comparing((BookingRow r) -> r.booking().tenant())
                .thenComparing(r -> r.booking().start())
                .thenComparing(r -> r.booking().id()));
        return rows;
    }

    /** All days' figures per tenant and pool (the counters: bounded by tenants × pools). */
    public Map<String, Map<String, Figures>> totals() {
        Map<String, Map<String, Figures>> totals = new TreeMap<>();
        for (BookingLedger b : bookings.values()) {
            Booking booking = b.facts().booking();
            b.days().keySet().forEach(day -> totals.computeIfAbsent(booking.tenant(), t -> new TreeMap<>())
                    .merge(booking.pool(), b.figures(day), Figures::plus));
        }
        totals.values().forEach(pools -> pools.replaceAll((pool, f) -> rounded(f)));
        return totals;
    }

    /** The daily records of the topic: one per tenant and day with any figure, every pool of the day inside. */
    public List<UsageDaily> daily() {
        Map<String, Map<String, Figures>> byKey = new TreeMap<>();
        for (DayRow row : days(LocalDate.MIN, LocalDate.MAX, t -> true)) {
            byKey.computeIfAbsent(UsageDaily.key(row.tenant(), row.day().toString()), k -> new TreeMap<>())
                    .put(row.pool(), row.figures());
        }
        List<UsageDaily> records = new ArrayList<>();
        byKey.forEach((key, pools) -> {
            int cut = key.lastIndexOf('/');
            Figures total = rounded(pools.values().stream().reduce(Figures.ZERO, Figures::plus));
            records.add(new UsageDaily(key.substring(0, cut), key.substring(cut + 1), pools, total, version, asOf));
        });
        return records;
    }

    static Figures rounded(Figures f) {
        return new Figures(
                round(f.booked()),
                round(f.admitted()),
                round(f.busy()),
                round(f.idle()),
                round(f.reclaimed()),
                round(f.released()));
    }

    private static double round(double gpuHours) {
        return BigDecimal.valueOf(gpuHours).setScale(6, RoundingMode.HALF_EVEN).doubleValue();
    }
}
