package io.gpuaas.metrics.ledger;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The pure computation of the ledger from the folded inputs (metrics-gateway DESIGN.md, "Ledger", defines every
 * figure). Bookings holding at the same time on one pool are served in a fixed order, earliest start first, then by
 * id: each takes what is left up to its quantity, so a tenant's use is never counted beyond what it booked and the
 * split between its bookings does not depend on the order the records came in.
 */
final class LedgerCalculator {

    private static final long DAY = 86_400_000L;
    private static final NavigableMap<Long, long[]> EMPTY = new TreeMap<>();

    /** A booking while it held its units, {@code [start, end)} in epoch ms. */
    private record Holder(BookingLedger ledger, long start, long end, long quantity) {

        String id() {
            return ledger.facts().booking().id();
        }

        String pool() {
            return ledger.facts().booking().pool();
        }
    }

    private static final Comparator<Holder> BY_START =
            Comparator.comparingLong(Holder::start).thenComparing(Holder::id);
    private static final Comparator<Holder> BY_START_POOL =
            Comparator.comparingLong(Holder::start).thenComparing(Holder::pool).thenComparing(Holder::id);

    private final List<BookingFacts> facts;
    private final Map<String, Double> weights;
    private final Map<String, List<Span>> admissions;
    private final Map<String, List<Span>> reclaims;
    private final Map<String, NavigableMap<Long, long[]>> samples;
    private final long minutesFrom;
    /** The computation's lower bound (epoch ms): nothing before it counts ({@link #compute(long, long)}). */
    private long from = Long.MIN_VALUE;

    /**
     * @param inputs      the fold's copy: bookings sorted by id, spans in {@link Span#ORDER}, sample buckets
     * @param minutesFrom from which minute (epoch ms) each booking keeps its busy and idle per minute
     */
    LedgerCalculator(LedgerInputs.Copy inputs, long minutesFrom) {
        this.facts = inputs.facts();
        this.weights = inputs.weights();
        this.admissions = byNamespace(inputs.admissions());
        this.reclaims = byNamespace(inputs.reclaims());
        this.samples = inputs.samples();
        this.minutesFrom = minutesFrom;
    }

    /** Spans per namespace, each list still in {@link Span#ORDER}: a group reads its tenant's namespaces only. */
    private static Map<String, List<Span>> byNamespace(List<Span> spans) {
        Map<String, List<Span>> index = new HashMap<>();
        spans.forEach(s ->
                index.computeIfAbsent(s.namespace(), n -> new ArrayList<>()).add(s));
        return index;
    }

    /** Every figure, with every window cut at {@code until} (epoch ms; {@code Long.MAX_VALUE} for none). */
    Map<String, BookingLedger> compute(long until) {
        return compute(Long.MIN_VALUE, until);
    }

    /**
     * Every figure over {@code [from, until)} only (epoch ms): windows and spans are clipped at both ends as they are
     * split at midnight, and a sample minute counts when it starts in that range. Minute-aligned bounds split the
     * figures cleanly: those over {@code [a, c)} plus those over {@code [c, b)} are those over {@code [a, b)}, since
     * the units served at an instant, and a minute's device time, depend on that instant or minute alone.
     */
    synchronized Map<String, BookingLedger> compute(long from, long until) {
        this.from = from;
        Map<String, BookingLedger> ledgers = new LinkedHashMap<>();
        List<Holder> holders = new ArrayList<>();
        Map<String, Set<String>> namespaces = new HashMap<>();
        for (BookingFacts f : facts) {
            BookingLedger ledger =
                    new BookingLedger(f, weights.getOrDefault(f.booking().id(), 1.0));
            ledgers.put(f.booking().id(), ledger);
            namespaces
                    .computeIfAbsent(f.booking().tenant(), t -> new TreeSet<>())
                    .add(f.booking().namespace());
            long start = f.booking().start().toEpochMilli();
            long q = f.booking().quantity();
            add(ledger, Kind.BOOKED, start, Math.min(f.bookedEnd().toEpochMilli(), until), q);
            if (f.releasedFrom() != null) {
                long end = Math.min(f.booking().end().toEpochMilli(), until);
                add(ledger, Kind.RELEASED, f.releasedFrom().toEpochMilli(), end, q);
            }
            long held = Math.min(f.heldEnd().toEpochMilli(), until);
            if (held > start) {
                holders.add(new Holder(ledger, start, held, q));
            }
        }
        group(
                        holders,
                        h -> h.ledger().facts().booking().tenant()
                                + '\u0000'
                                + h.ledger().facts().booking().flavor()
                                + '\u0000'
                                + h.ledger().facts().booking().resource())
                .forEach(group -> admitted(group, namespaces, until));
        group(holders, h -> h.ledger().facts().booking().tenant())
                .forEach(group -> reclaimed(group, namespaces, until));
        group(
                        holders,
                        h -> h.ledger().facts().booking().tenant()
                                + '\u0000'
                                + h.pool()
                                + '\u0000'
                                + h.ledger().facts().booking().resource())
                .forEach(group -> busyIdle(group, namespaces, until));
        return ledgers;
    }

    private static List<List<Holder>> group(List<Holder> holders, Function<Holder, String> key) {
        Map<String, List<Holder>> groups = new TreeMap<>();
        holders.forEach(h ->
                groups.computeIfAbsent(key.apply(h), k -> new ArrayList<>()).add(h));
        return new ArrayList<>(groups.values());
    }

    private void admitted(List<Holder> group, Map<String, Set<String>> namespaces, long until) {
        var b = group.getFirst().ledger().facts().booking();
        List<Span> supply = new ArrayList<>();
        for (String ns : namespaces.get(b.tenant())) {
            for (Span s : admissions.getOrDefault(ns, List.of())) {
                if (s.flavor().equals(b.flavor()) && s.resource().equals(b.resource())) {
                    supply.add(s);
                }
            }
        }
        group.sort(BY_START);
        sweep(group, supply, Kind.ADMITTED, until);
    }

    private void reclaimed(List<Holder> group, Map<String, Set<String>> namespaces, long until) {
        List<Span> supply = new ArrayList<>();
        for (String ns :
                namespaces.get(group.getFirst().ledger().facts().booking().tenant())) {
            supply.addAll(reclaims.getOrDefault(ns, List.of()));
        }
        group.sort(BY_START_POOL);
        sweep(group, supply, Kind.RECLAIMED, until);
    }

    /** Serves the units of {@code supply} to the holders, in their order, capped at each one's quantity. */
    private void sweep(List<Holder> holders, List<Span> supply, Kind kind, long until) {
        if (supply.isEmpty()) {
            return;
        }
        TreeMap<Long, Long> deltas = new TreeMap<>();
        for (Span s : supply) {
            deltas.merge(s.from(), s.units(), Long::sum);
            deltas.merge(s.to(), -s.units(), Long::sum);
        }
        TreeSet<Long> times = new TreeSet<>(deltas.keySet());
        holders.forEach(h -> {
            times.add(h.start());
            times.add(h.end());
        });
        long units = 0;
        Long t = times.first();
        for (Long next = times.higher(t); next != null && t < until; t = next, next = times.higher(t)) {
            units += deltas.getOrDefault(t, 0L);
            long left = units;
            for (Holder h : holders) {
                if (left <= 0) {
                    break;
                }
                if (h.start() <= t && next <= h.end()) {
                    long take = Math.min(h.quantity(), left);
                    add(h.ledger(), kind, t, Math.min(next, until), take);
                    left -= take;
                }
            }
        }
    }

    /**
     * Device time of one resource of one pool (a static pool has one; a flexible pool's slices of one profile, or its
     * whole GPUs) goes to the tenant's bookings of that resource, so a unit of time is weighed as what it ran on.
     */
    private void busyIdle(List<Holder> group, Map<String, Set<String>> namespaces, long until) {
        String pool = group.getFirst().pool();
        String resource = group.getFirst().ledger().facts().booking().resource();
        NavigableMap<Long, long[]> minutes = new TreeMap<>();
        for (String ns :
                namespaces.get(group.getFirst().ledger().facts().booking().tenant())) {
            samples.getOrDefault(SampleBuckets.key(ns, pool, resource), EMPTY).forEach((m, ms) -> {
                long[] sum = minutes.computeIfAbsent(m, k -> new long[2]);
                sum[0] += ms[0];
                sum[1] += ms[1];
            });
        }
        group.sort(BY_START);
        if (from < until) {
            minutes.subMap(from, true, until, false).forEach((minute, ms) -> serveMinute(group, minute, ms[0], ms[1]));
        }
    }

    /** A minute's busy, then idle, device-ms go to the holders in order, each up to quantity × its overlap. */
    private void serveMinute(List<Holder> holders, long minute, long busy, long idle) {
        LocalDate day = day(minute);
        for (Holder h : holders) {
            long overlap = Math.min(h.end(), minute + SampleBuckets.MINUTE) - Math.max(h.start(), minute);
            if (overlap <= 0) {
                continue;
            }
            long cap = h.quantity() * overlap;
            long takeBusy = Math.min(busy, cap);
            long takeIdle = Math.min(idle, cap - takeBusy);
            h.ledger().add(day, Kind.BUSY, takeBusy);
            h.ledger().add(day, Kind.IDLE, takeIdle);
            if (minute >= minutesFrom) {
                h.ledger().minute(minute, takeBusy, takeIdle);
            }
            busy -= takeBusy;
            idle -= takeIdle;
        }
    }

    /** Adds {@code units} over {@code [start, to)}, clipped at the computation's lower bound, to the days it covers. */
    private void add(BookingLedger ledger, Kind kind, long start, long to, long units) {
        long from = Math.max(start, this.from);
        while (from < to) {
            long dayEnd = (Math.floorDiv(from, DAY) + 1) * DAY;
            long end = Math.min(to, dayEnd);
            ledger.add(day(from), kind, units * (end - from));
            from = end;
        }
    }

    private static LocalDate day(long epochMillis) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }
}
