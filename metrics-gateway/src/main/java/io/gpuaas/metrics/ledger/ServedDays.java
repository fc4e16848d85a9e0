package io.gpuaas.metrics.ledger;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageDaily.BookingDay;
import io.gpuaas.events.usage.UsageDaily.Figures;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The days a snapshot serves from {@code gpuaas.usage-ledger} rather than from its fold alone (metrics-gateway
 * DESIGN.md, "Sealed days, cut, BASE + DELTA"): a sealed day is its final record; a day the fold cannot see whole
 * is BASE + DELTA, the topic's last record of it (figures over {@code [day start, cut)}) plus the fold's own
 * figures from {@code cut} on, when the fold sees every input whole from {@code cut} (its horizon is not later) and
 * the record weighs MIG slices as the fold does ({@link UsageDaily#GPU_SHARE}); otherwise BASE alone.
 *
 * @param view     key to the record the API serves (DELTA with every window whole, as the fold's days are)
 * @param accrued  key to the same up to the snapshot's cut: what the gauge counts and the leader publishes
 * @param baseOnly the keys served as BASE alone: their use since the record's cut is not counted
 */
record ServedDays(Map<String, UsageDaily> view, Map<String, UsageDaily> accrued, Set<String> baseOnly) {

    /**
     * @param topic   every key's last record on the topic
     * @param fold    the fold's calculator, asked for the figures from each distinct BASE cut on
     * @param horizon from when the fold sees every input whole (null: from their start)
     * @param cut     the snapshot's cut (epoch ms, a whole minute)
     */
    static ServedDays of(
            Map<String, UsageDaily> topic,
            LedgerCalculator fold,
            Instant horizon,
            long cut,
            long version,
            Instant asOf) {
        Map<String, UsageDaily> view = new HashMap<>();
        Map<String, UsageDaily> accrued = new HashMap<>();
        Set<String> baseOnly = new HashSet<>();
        Map<Instant, List<UsageDaily>> byCut = new TreeMap<>();
        topic.forEach((key, record) -> {
            if (!record.isSealed() && Sealing.visible(LocalDate.parse(record.day()), horizon)) {
                return; // the fold sees the day whole: it serves it alone
            }
            // A record without cut has no known extent; one without the gpu-share marker weighs MIG slices N/7 and
            // cannot take a DELTA weighed 1/k: both are served as they stand, sealed so at the day's end.
            if (record.isSealed()
                    || record.cut() == null
                    || !record.weighsMigByGpuShare()
                    || record.cut().isBefore(horizon)) {
                view.put(key, record);
                accrued.put(key, record);
                if (!record.isSealed()) {
                    baseOnly.add(key);
                }
            } else {
                byCut.computeIfAbsent(record.cut(), c -> new ArrayList<>()).add(record);
            }
        });
        byCut.forEach((from, bases) -> {
            long start = from.toEpochMilli();
            Map<String, List<BookingLedger>> whole = byTenant(fold.compute(start, Long.MAX_VALUE));
            Map<String, List<BookingLedger>> upToCut = byTenant(fold.compute(start, cut));
            Instant next = Instant.ofEpochMilli(Math.max(start, cut));
            for (UsageDaily base : bases) {
                String key = UsageDaily.key(base.tenant(), base.day());
                view.put(key, plus(base, whole, next, version, asOf));
                accrued.put(key, plus(base, upToCut, next, version, asOf));
            }
        });
        return new ServedDays(Map.copyOf(view), Map.copyOf(accrued), Set.copyOf(baseOnly));
    }

    private static Map<String, List<BookingLedger>> byTenant(Map<String, BookingLedger> ledgers) {
        Map<String, List<BookingLedger>> index = new HashMap<>();
        ledgers.values().forEach(b -> index.computeIfAbsent(b.facts().booking().tenant(), t -> new ArrayList<>())
                .add(b));
        return index;
    }

    /** BASE plus the fold's figures of its tenant and day (DELTA), per pool and per booking, covering up to cut. */
    private static UsageDaily plus(
            UsageDaily base, Map<String, List<BookingLedger>> delta, Instant cut, long version, Instant asOf) {
        LocalDate day = LocalDate.parse(base.day());
        Map<String, BookingDay> bookings = new TreeMap<>();
        // From the unrounded booking figures when the record has them, so that rounding never accumulates over
        // generations of records and a day's row stays the sum of its bookings' rows.
        Map<String, Figures> pools = new TreeMap<>(base.bookings() == null ? base.pools() : Map.of());
        (base.bookings() == null ? List.<BookingDay>of() : base.bookings()).forEach(b -> {
            bookings.put(b.bookingId(), b);
            pools.merge(b.pool(), b.figures(), Figures::plus);
        });
        for (BookingLedger b : delta.getOrDefault(base.tenant(), List.of())) {
            if (!b.days().containsKey(day)) {
                continue;
            }
            Booking booking = b.facts().booking();
            Figures f = b.figures(day);
            pools.merge(booking.pool(), f, Figures::plus);
            bookings.merge(
                    booking.id(),
                    new BookingDay(booking.id(), booking.pool(), f),
                    (x, y) ->
                            new BookingDay(x.bookingId(), x.pool(), x.figures().plus(y.figures())));
        }
        pools.replaceAll((pool, f) -> Ledger.rounded(f));
        Figures total = Ledger.rounded(pools.values().stream().reduce(Figures.ZERO, Figures::plus));
        return new UsageDaily(
                base.tenant(),
                base.day(),
                pools,
                total,
                version,
                asOf,
                null,
                List.copyOf(bookings.values()),
                cut,
                UsageDaily.GPU_SHARE);
    }
}
