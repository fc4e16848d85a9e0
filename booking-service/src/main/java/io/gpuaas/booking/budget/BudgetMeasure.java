package io.gpuaas.booking.budget;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.budget.BudgetHold;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolPrice;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a window of units amounts to per UTC month, in both budget units: GPU-hours (a unit weighed as the usage ledger
 * weighs it, {@link Pool#gpuFraction(String)}) and cost (each UTC day's weighed GPU-hours times the pool's price that
 * day; a day without a price costs nothing). Pure; the budget stage and the pool's decider measure with the same code,
 * so what one set aside the other compares to the same figure.
 */
public final class BudgetMeasure {

    /** Decimals of every budget figure, as of the ledger's costs. */
    public static final int SCALE = PoolPrice.COST_SCALE;

    private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);

    private BudgetMeasure() {}

    /** A window's amount in both units. */
    public record Amount(BigDecimal gpuHours, BigDecimal cost) {

        public static final Amount ZERO = new Amount(BigDecimal.ZERO, BigDecimal.ZERO);

        public Amount plus(Amount other) {
            return new Amount(gpuHours.add(other.gpuHours), cost.add(other.cost));
        }

        public Amount minus(Amount other) {
            return new Amount(gpuHours.subtract(other.gpuHours), cost.subtract(other.cost));
        }

        /** The amount in {@code unit}. */
        public BigDecimal in(TenantBudget.Unit unit) {
            return unit == TenantBudget.Unit.COST ? cost : gpuHours;
        }

        /** Each figure at least zero. */
        public Amount atLeastZero() {
            return new Amount(gpuHours.max(BigDecimal.ZERO), cost.max(BigDecimal.ZERO));
        }
    }

    /** {@code yyyy-MM} of an instant, in UTC. */
    public static String monthOf(Instant instant) {
        return YearMonth.from(instant.atOffset(ZoneOffset.UTC)).toString();
    }

    /**
     * {@code quantity} units of {@code pool} ({@code profile} on a flexible pool, null for whole GPUs or a static
     * pool's own unit) over {@code [start, end)}, per month it touches, in order of month; empty for an empty window.
     */
    public static SortedMap<String, Amount> of(Pool pool, String profile, int quantity, Instant start, Instant end) {
        SortedMap<String, Amount> months = new TreeMap<>();
        if (start == null || end == null || !end.isAfter(start) || quantity <= 0) {
            return months;
        }
        BigDecimal weight = BigDecimal.valueOf(pool.gpuFraction(profile)).multiply(BigDecimal.valueOf(quantity));
        Instant from = start;
        while (from.isBefore(end)) {
            LocalDate day = LocalDate.ofInstant(from, ZoneOffset.UTC);
            Instant dayEnd = day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
            Instant to = dayEnd.isBefore(end) ? dayEnd : end;
            BigDecimal hours = BigDecimal.valueOf(Duration.between(from, to).toMillis())
                    .divide(SECONDS_PER_HOUR.multiply(BigDecimal.valueOf(1000)), 12, RoundingMode.HALF_EVEN);
            BigDecimal gpuHours = weight.multiply(hours);
            Optional<PoolPrice> price = pool.priceOn(day);
            BigDecimal cost = price.map(p -> gpuHours.multiply(p.perGpuHour())).orElse(BigDecimal.ZERO);
            months.merge(monthOf(from), new Amount(gpuHours, cost), Amount::plus);
            from = to;
        }
        months.replaceAll((m, a) -> new Amount(
                a.gpuHours().setScale(SCALE, RoundingMode.HALF_EVEN),
                a.cost().setScale(SCALE, RoundingMode.HALF_EVEN)));
        return months;
    }

    /**
     * The most a window of {@code span} can put in each month when it starts anywhere in {@code [from, to]}: per
     * month and per unit the largest figure of any such window (a start that maximises one month need not maximise
     * the next). Exact, not sampled: a month's figure is linear in the start between the starts where the window's
     * start or end crosses a UTC day boundary (prices change by day, months begin on one), so its largest value is at
     * {@code from}, at {@code to} or at one of those starts, and those are all tried.
     */
    public static SortedMap<String, Amount> widest(
            Pool pool, String profile, int quantity, Instant from, Instant to, Duration span) {
        SortedMap<String, Amount> most = new TreeMap<>();
        if (to.isBefore(from)) {
            return of(pool, profile, quantity, from, from.plus(span));
        }
        SortedSet<Instant> starts = new TreeSet<>(List.of(from, to));
        Instant day = LocalDate.ofInstant(from, ZoneOffset.UTC)
                .plusDays(1)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC);
        Instant lastBoundary = to.plus(span);
        for (Instant d = day; !d.isAfter(lastBoundary); d = d.plus(Duration.ofDays(1))) {
            addWithin(starts, d, from, to); // the window's start on a day boundary
            addWithin(starts, d.minus(span), from, to); // its end on one
        }
        for (Instant start : starts) {
            of(pool, profile, quantity, start, start.plus(span))
                    .forEach((m, a) -> most.merge(m, a, BudgetMeasure::larger));
        }
        return most;
    }

    private static void addWithin(SortedSet<Instant> starts, Instant t, Instant from, Instant to) {
        if (!t.isBefore(from) && !t.isAfter(to)) {
            starts.add(t);
        }
    }

    private static Amount larger(Amount a, Amount b) {
        return new Amount(a.gpuHours().max(b.gpuHours()), a.cost().max(b.cost()));
    }

    /**
     * What a booking counts per month in its state: its window while confirmed, active, completed or awaiting
     * approval; up to its release once released (the rest is given back); nothing once cancelled or denied.
     */
    public static SortedMap<String, Amount> of(Pool pool, Booking booking) {
        Instant end =
                switch (booking.state()) {
                    case CANCELLED, DENIED -> booking.start();
                    case RELEASED -> clamp(booking.updatedAt(), booking.start(), booking.end());
                    default -> booking.end();
                };
        return of(pool, profileOf(pool, booking), booking.quantity(), booking.start(), end);
    }

    /** Whether a booking in this state counts as booked (else, awaiting approval, as held). */
    public static boolean booked(BookingState state) {
        return state != BookingState.PENDING_APPROVAL;
    }

    /** The profile a booking's units are of on a flexible pool (null for whole GPUs and on a static pool). */
    public static String profileOf(Pool pool, Booking booking) {
        return pool.flexible() ? pool.profileOf(booking.resource()) : null;
    }

    /**
     * The pool decider's check of a create or change the budget stage let through: the months where what is asked for
     * beyond what the booking already counted ({@code before}, empty for a create) needs more than {@code hold} set
     * aside, as a sentence; empty when none (or when no hold was carried: the stage did not check it).
     */
    public static Optional<String> beyondHold(
            BudgetHold hold, Map<String, Amount> asked, Map<String, Amount> before, Instant now) {
        if (hold == null) {
            return Optional.empty();
        }
        for (Map.Entry<String, Amount> month : new TreeMap<>(asked).entrySet()) {
            BigDecimal needed = month.getValue()
                    .minus(before.getOrDefault(month.getKey(), Amount.ZERO))
                    .in(hold.unit());
            BigDecimal setAside = hold.in(month.getKey());
            if (needed.compareTo(setAside) > 0) {
                return Optional.of("the window decided at " + now + " needs " + needed.toPlainString() + " "
                        + unitName(hold.unit()) + " in " + month.getKey() + ", more than the "
                        + setAside.toPlainString() + " the budget check set aside");
            }
        }
        return Optional.empty();
    }

    static String unitName(TenantBudget.Unit unit) {
        return unit == TenantBudget.Unit.COST ? "of cost" : "GPU-hours";
    }

    /** A hold in {@code unit} of {@code months}. */
    public static BudgetHold hold(TenantBudget.Unit unit, Map<String, Amount> months) {
        List<BudgetHold.MonthAmount> amounts = new TreeMap<>(months)
                .entrySet().stream()
                        .map(e -> new BudgetHold.MonthAmount(
                                e.getKey(), e.getValue().in(unit).max(BigDecimal.ZERO)))
                        .toList();
        return new BudgetHold(unit, amounts);
    }

    private static Instant clamp(Instant t, Instant lo, Instant hi) {
        if (t == null || t.isAfter(hi)) {
            return hi;
        }
        return t.isBefore(lo) ? lo : t;
    }
}
