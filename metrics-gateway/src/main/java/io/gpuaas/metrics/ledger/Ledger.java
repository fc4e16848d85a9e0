package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageDaily.BookingDay;
import io.gpuaas.events.usage.UsageDaily.Figures;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * One computed, immutable snapshot of the ledger: every booking's figures per UTC day from the fold, and the days
 * served from {@code gpuaas.usage-ledger} instead (sealed days, and days this replica's fold cannot fully see).
 * Figures leave here rounded to 6 decimals of a GPU-hour (3.6 ms of one GPU), summed over bookings in booking id
 * order, so two replicas with the same records give the same rows to the digit.
 */
public final class Ledger {

    /** One tenant's figures on one pool and UTC day. */
    public record DayRow(String tenant, LocalDate day, String pool, Figures figures) {}

    /** One booking's figures over the asked days, with what identifies it. */
    public record BookingRow(Booking booking, String releaseReason, Instant releasedAt, Figures figures) {}

    private final Map<String, BookingLedger> bookings;
    private final Map<String, BookingLedger> accrued;
    private final long version;
    private final Instant asOf;
    private final Instant cut;
    private final Instant horizon;
    private final Map<String, UsageDaily> served;
    private final ServedDays servedDays;
    private final Map<String, NavigableMap<LocalDate, Figures>> servedBookings = new HashMap<>();
    private final Map<String, Map<String, Figures>> totals;

    /**
     * @param bookings booking id to its ledger from the fold, in id order
     * @param accrued  the same with every window cut at {@code cut} (the gauge's totals, the published records)
     * @param version  input records folded
     * @param asOf     latest event time among them, null before the first
     * @param cut      the whole minute of {@code asOf}: what this snapshot's records cover up to
     * @param horizon  from when the fold sees every input whole, null when it sees them all from their start
     * @param served   the days served from the topic's records instead of the fold alone
     */
    Ledger(
            Map<String, BookingLedger> bookings,
            Map<String, BookingLedger> accrued,
            long version,
            Instant asOf,
            Instant cut,
            Instant horizon,
            ServedDays served) {
        this.bookings = bookings;
        this.accrued = accrued;
        this.version = version;
        this.asOf = asOf;
        this.cut = cut;
        this.horizon = horizon;
        this.served = served.view();
        this.servedDays = served;
        this.served.values().forEach(record -> {
            LocalDate day = LocalDate.parse(record.day());
            for (BookingDay b : record.bookings() == null ? List.<BookingDay>of() : record.bookings()) {
                servedBookings
                        .computeIfAbsent(b.bookingId(), id -> new TreeMap<>())
                        .put(day, b.figures());
            }
        });
        this.totals = sumTotals();
    }

    public Map<String, BookingLedger> bookings() {
        return bookings;
    }

    public long version() {
        return version;
    }

    public Instant asOf() {
        return asOf;
    }

    /** From when the fold sees every input whole; null: from their start (nothing was deleted before it read). */
    public Instant horizon() {
        return horizon;
    }

    /** The records this snapshot serves instead of its fold alone (sealed, BASE + DELTA, BASE alone), by key. */
    public Map<String, UsageDaily> served() {
        return served;
    }

    /** The days served as BASE alone: the fold cannot see them whole, nor from their record's cut on. */
    public Set<String> baseOnly() {
        return servedDays.baseOnly();
    }

    /** The whole minute this snapshot's records cover up to; null before the first input. */
    public Instant cut() {
        return cut;
    }

    private boolean isServed(String tenant, LocalDate day) {
        return served.containsKey(UsageDaily.key(tenant, day.toString()));
    }

    /** Rows per tenant, day in {@code [from, to)} and pool, sorted by those, for the tenants {@code tenants} admits. */
    public List<DayRow> days(LocalDate from, LocalDate to, Predicate<String> tenants) {
        Map<String, Figures> sums = new TreeMap<>();
        for (BookingLedger b : bookings.values()) {
            Booking booking = b.facts().booking();
            if (!tenants.test(booking.tenant())) {
                continue;
            }
            b.days().subMap(from, true, to, false).keySet().stream()
                    .filter(day -> !isServed(booking.tenant(), day))
                    .forEach(day -> sums.merge(
                            booking.tenant() + '\u0000' + day + '\u0000' + booking.pool(),
                            b.figures(day),
                            Figures::plus));
        }
        served.values().stream()
                .filter(r -> tenants.test(r.tenant()) && inRange(r.day(), from, to))
                .forEach(r ->
                        r.pools().forEach((pool, f) -> sums.put(r.tenant() + '\u0000' + r.day() + '\u0000' + pool, f)));
        List<DayRow> rows = new ArrayList<>();
        sums.forEach((key, figures) -> {
            String[] parts = key.split("\u0000", 3);
            rows.add(new DayRow(parts[0], LocalDate.parse(parts[1]), parts[2], rounded(figures)));
        });
        return rows;
    }

    private static boolean inRange(String day, LocalDate from, LocalDate to) {
        LocalDate d = LocalDate.parse(day);
        return !d.isBefore(from) && d.isBefore(to);
    }

    /**
     * One row per booking of the admitted tenants whose booked window overlaps {@code [from, to)} or that has a
     * figure in it, sorted by tenant, start and id; figures of those days only.
     */
    public List<BookingRow> bookings(LocalDate from, LocalDate to, Predicate<String> tenants) {
        Instant fromInstant = from.atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant toInstant = to.atStartOfDay(ZoneOffset.UTC).toInstant();
        List<BookingRow> rows = new ArrayList<>();
        for (BookingLedger b : bookings.values()) {
            Booking booking = b.facts().booking();
            if (!tenants.test(booking.tenant())) {
                continue;
            }
            Figures sum = Figures.ZERO;
            boolean figures = false;
            for (LocalDate day : b.days().subMap(from, true, to, false).keySet()) {
                if (!isServed(booking.tenant(), day)) {
                    sum = sum.plus(b.figures(day));
                    figures = true;
                }
            }
            NavigableMap<LocalDate, Figures> sealed = servedBookings.getOrDefault(booking.id(), new TreeMap<>());
            for (Figures f : sealed.subMap(from, true, to, false).values()) {
                sum = sum.plus(f);
                figures = true;
            }
            boolean overlaps =
                    booking.start().isBefore(toInstant) && booking.end().isAfter(fromInstant);
            if (overlaps || figures) {
                var reason = b.facts().releaseReason();
                rows.add(new BookingRow(
                        booking,
                        reason == null ? null : reason.name(),
                        reason == null ? null : b.facts().heldEnd(),
                        rounded(sum)));
            }
        }
        rows.sort(Comparator.comparing((BookingRow r) -> r.booking().tenant())
                .thenComparing(r -> r.booking().start())
                .thenComparing(r -> r.booking().id()));
        return rows;
    }

    /** All days' figures accrued so far per tenant and pool (the gauge: bounded by tenants × pools). */
    public Map<String, Map<String, Figures>> totals() {
        return totals;
    }

    private Map<String, Map<String, Figures>> sumTotals() {
        Map<String, Map<String, Figures>> sums = new TreeMap<>();
        for (BookingLedger b : accrued.values()) {
            Booking booking = b.facts().booking();
            b.days().keySet().stream()
                    .filter(day -> !isServed(booking.tenant(), day))
                    .forEach(day -> sums.computeIfAbsent(booking.tenant(), t -> new TreeMap<>())
                            .merge(booking.pool(), b.figures(day), Figures::plus));
        }
        servedDays.accrued().values().forEach(r -> r.pools()
                .forEach((pool, f) ->
                        sums.computeIfAbsent(r.tenant(), t -> new TreeMap<>()).merge(pool, f, Figures::plus)));
        sums.values().forEach(pools -> pools.replaceAll((pool, f) -> rounded(f)));
        return sums;
    }

    /**
     * What {@link #totals()} sums, per tenant, UTC day and pool (sorted by those, rounded as the day view): the
     * figures accrued so far (every window cut at {@link #cut()}), which the cost gauge prices day by day.
     */
    public List<DayRow> accruedDays() {
        Map<String, Figures> sums = new TreeMap<>();
        for (BookingLedger b : accrued.values()) {
            Booking booking = b.facts().booking();
            b.days().keySet().stream()
                    .filter(day -> !isServed(booking.tenant(), day))
                    .forEach(day -> sums.merge(
                            booking.tenant() + '\u0000' + day + '\u0000' + booking.pool(),
                            b.figures(day),
                            Figures::plus));
        }
        servedDays.accrued().values().forEach(r -> r.pools()
                .forEach((pool, f) -> sums.merge(r.tenant() + '\u0000' + r.day() + '\u0000' + pool, f, Figures::plus)));
        List<DayRow> rows = new ArrayList<>();
        sums.forEach((key, figures) -> {
            String[] parts = key.split("\u0000", 3);
            rows.add(new DayRow(parts[0], LocalDate.parse(parts[1]), parts[2], rounded(figures)));
        });
        return rows;
    }

    /**
     * The records the leader would publish now, by key: the fold's figures up to {@link #cut()} of every day it has
     * any for (a day it cannot see whole included: the publisher decides what to send), overlaid by the served days'
     * records up to the same cut. Not sealed; each with its bookings' figures, unrounded.
     */
    public Map<String, UsageDaily> records() {
        Map<String, Map<String, Figures>> pools = new TreeMap<>();
        Map<String, List<BookingDay>> days = new HashMap<>();
        for (BookingLedger b : accrued.values()) {
            Booking booking = b.facts().booking();
            b.days().keySet().forEach(day -> {
                String key = UsageDaily.key(booking.tenant(), day.toString());
                pools.computeIfAbsent(key, k -> new TreeMap<>()).merge(booking.pool(), b.figures(day), Figures::plus);
                days.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new BookingDay(booking.id(), booking.pool(), b.figures(day)));
            });
        }
        Map<String, UsageDaily> records = new TreeMap<>();
        pools.forEach((key, byPool) -> {
            int at = key.lastIndexOf('/');
            byPool.replaceAll((pool, f) -> rounded(f));
            Figures total = rounded(byPool.values().stream().reduce(Figures.ZERO, Figures::plus));
            records.put(
                    key,
                    new UsageDaily(
                            key.substring(0, at),
                            key.substring(at + 1),
                            byPool,
                            total,
                            version,
                            asOf,
                            null,
                            List.copyOf(days.get(key)),
                            cut,
                            UsageDaily.GPU_SHARE));
        });
        records.putAll(servedDays.accrued());
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
