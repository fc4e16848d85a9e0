package io.gpuaas.booking.budget;

import io.gpuaas.booking.budget.BudgetMeasure.Amount;
import io.gpuaas.booking.budget.TenantLedger.Counted;
import io.gpuaas.booking.budget.TenantLedger.Hold;
import io.gpuaas.booking.budget.TenantLedger.KeyUse;
import io.gpuaas.booking.budget.TenantLedger.Limit;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.IdempotencyGuard;
import io.gpuaas.booking.model.Recurrence;
import io.gpuaas.booking.model.RecurrenceRule;
import io.gpuaas.booking.model.Rejection;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.BudgetFigures;
import io.gpuaas.events.budget.BudgetHold;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The budget stage's rules, one tenant at a time: a pure function of (command, the tenant's ledger, now) to a
 * {@link BudgetDecision}. The invariant it keeps: for every month, what the tenant's confirmed bookings count never
 * exceeds its budget, because nothing becomes booked that was not first held here, a hold is placed only when booked +
 * held + needed fits the budget, and the pool's decider confirms no more than was held ({@link BudgetHold}).
 */
public final class BudgetDecider {

    /** The thresholds told, in percent of the budget. */
    public static final List<Integer> THRESHOLDS = List.of(50, 80, 100);

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** The default of how long a retry's idempotency key is remembered, as the pool's decider keeps its answers. */
    public static final Duration KEY_RETENTION = Duration.ofDays(7);

    private final PoolCatalog pools;
    private final BookingPolicy policy;
    private final Duration keyRetention;

    public BudgetDecider(PoolCatalog pools, BookingPolicy policy) {
        this(pools, policy, KEY_RETENTION);
    }

    /**
     * @param keyRetention how long an idempotency key's first use is remembered (the pool's decider's retention, so a
     *                     retry the pool would answer from its memory is never measured again here)
     */
    public BudgetDecider(PoolCatalog pools, BookingPolicy policy, Duration keyRetention) {
        this.pools = pools;
        this.policy = policy;
        this.keyRetention = keyRetention;
    }

    /**
     * Decides over a whole {@link TenantLedger} (null: a tenant nothing is known of), leaving it as it was: the
     * decision carries the ledger after the command. The same rules as {@link #decide(BudgetCommand, LedgerAccess,
     * Instant)}, which the stage uses over its stores.
     */
    public BudgetDecision decide(BudgetCommand command, TenantLedger current, Instant now) {
        MemoryLedger ledger = current == null ? MemoryLedger.empty(command.tenant()) : MemoryLedger.of(current);
        return decide(command, ledger, now).withLedger(ledger.toLedger());
    }

    /**
     * Decides {@code command} for the tenant whose state {@code ledger} gives, changing it there (the summary and the
     * items the command concerns; every item only when the tenant's clock enters a new month and closes one). The
     * decision's {@link BudgetDecision#ledger()} is null: the state is in {@code ledger}.
     */
    public BudgetDecision decide(BudgetCommand command, LedgerAccess ledger, Instant now) {
        TenantSummary was = ledger.summary();
        ledger.summary(was.copyAt(now));
        if (!TenantSummary.openFrom(was.clock()).equals(ledger.summary().openFrom())) {
            prune(ledger); // a month closed: the one sweep over the tenant's items until the next month closes
        }
        SortedMap<String, Amount> before = takenPerMonth(ledger);
        return switch (command) {
            case BudgetCommand.SetBudget set -> {
                if (ledger.summary().closed(set.month())) {
                    yield finish(ledger, before, new TreeSet<>(), null, null); // nothing can change there any more
                }
                ledger.summary().budgets().put(set.month(), new Limit(set.unit(), set.limit(), set.currency(), now));
                yield finish(ledger, before, new TreeSet<>(List.of(set.month())), null, null);
            }
            case BudgetCommand.HoldCreate hold ->
                once(ledger, before, hold.create(), now, () -> create(ledger, before, hold.create(), now));
            case BudgetCommand.HoldChange hold ->
                once(ledger, before, hold.change(), now, () -> change(ledger, before, hold.change(), now));
            case BudgetCommand.HoldSeries hold ->
                once(ledger, before, hold.series(), now, () -> series(ledger, before, hold.series(), now));
            case BudgetCommand.BookingOutcome outcome -> outcome(ledger, before, outcome);
        };
    }

    /**
     * A request decided once per idempotency key: a retry of a key's first use (same key, same fingerprint, within
     * the retention) gets the first use's answer, not a new measure against a budget the first use itself may have
     * filled. A first use the stage refused is refused again with the same figures; one it passed on is passed on
     * again holding nothing, so the pool's decider answers it from its own memory (and, should it not remember it,
     * may not book anything with it in a budgeted month). Another request under a used key is measured as new (the
     * pool's decider refuses it IDEMPOTENCY_MISMATCH).
     */
    private BudgetDecision once(
            LedgerAccess ledger,
            SortedMap<String, Amount> before,
            BookingCommand c,
            Instant now,
            Supplier<BudgetDecision> decide) {
        if (c.idempotencyKey() == null) {
            return decide.get();
        }
        String key = IdempotencyGuard.scopedKey(c);
        String fingerprint = IdempotencyGuard.fingerprint(c);
        KeyUse first = ledger.key(key);
        if (first != null && first.at().isBefore(ledger.summary().clock().minus(keyRetention))) {
            first = null; // forgotten: past the retention (removed from the store at the next month's sweep)
        }
        if (first != null && first.fingerprint().equals(fingerprint)) {
            return first.refusal() != null
                    ? finish(ledger, before, new TreeSet<>(), null, readdressed(first.refusal(), c.requestId()))
                    : finish(ledger, before, new TreeSet<>(), withNothingHeld(ledger, c), null);
        }
        BudgetDecision decided = decide.get();
        if (first == null) {
            ledger.putKey(key, new KeyUse(fingerprint, now, decided.refusal()));
        }
        return decided;
    }

    private static BookingEvent.BookingRejected readdressed(BookingEvent.BookingRejected r, String requestId) {
        return new BookingEvent.BookingRejected(
                requestId,
                r.bookingId(),
                r.pool(),
                r.tenant(),
                r.reason(),
                r.message(),
                r.conflicts(),
                r.earliestStart(),
                r.time(),
                r.budget());
    }

    /** The request passed on with nothing set aside (no hold at all for a tenant without budgets). */
    private static BookingCommand withNothingHeld(LedgerAccess ledger, BookingCommand c) {
        BudgetHold none = ledger.summary().budgets().isEmpty()
                ? null
                : new BudgetHold(
                        ledger.summary().budgets().values().iterator().next().unit(), List.of());
        return switch (c) {
            case BookingCommand.CreateBooking create -> create.withBudgetHold(none);
            case BookingCommand.ChangeBooking change -> change.withBudgetHold(none);
            default -> c; // a series carries no hold: its occurrences are the windows measured
        };
    }

    private BudgetDecision create(
            LedgerAccess ledger, SortedMap<String, Amount> before, BookingCommand.CreateBooking c, Instant now) {
        Optional<SortedMap<String, Amount>> needed = measureCreate(c, now);
        if (needed.isEmpty()) {
            // Not measurable (unknown pool, profile or window): the pool's decider refuses it; nothing is held.
            return finish(ledger, before, new TreeSet<>(), c, null);
        }
        Optional<BookingEvent.BookingRejected> refused = refuse(ledger, c, c.bookingId(), needed.get(), now);
        if (refused.isPresent()) {
            return finish(ledger, before, new TreeSet<>(needed.get().keySet()), null, refused.get());
        }
        putHold(ledger, c.requestId(), new Hold(c.bookingId(), false, needed.get(), now));
        return finish(
                ledger,
                before,
                new TreeSet<>(needed.get().keySet()),
                c.withBudgetHold(carried(ledger, needed.get())),
                null);
    }

    private BudgetDecision change(
            LedgerAccess ledger, SortedMap<String, Amount> before, BookingCommand.ChangeBooking c, Instant now) {
        Counted counted = ledger.booking(c.bookingId());
        Optional<Pool> pool = pools.find(c.pool());
        if (pool.isEmpty() || c.start() == null || (c.end() == null) == (c.duration() == null)) {
            return finish(ledger, before, new TreeSet<>(), c, null); // the pool's decider refuses it
        }
        if (counted == null) {
            // A booking not counted here (yet: its confirmation is still on its way back; or another tenant's, or
            // unknown): nothing to measure the change by, so a tenant with budgets gets nothing set aside and the
            // pool's decider lets the window grow by nothing.
            BudgetHold none = ledger.summary().budgets().isEmpty()
                    ? null
                    : new BudgetHold(
                            ledger.summary()
                                    .budgets()
                                    .values()
                                    .iterator()
                                    .next()
                                    .unit(),
                            List.of());
            return finish(ledger, before, new TreeSet<>(), c.withBudgetHold(none), null);
        }
        Instant end = c.end() != null ? c.end() : policy.endAfter(now, c.duration());
        String profile = pool.get().flexible() ? pool.get().profileOf(counted.resource()) : null;
        SortedMap<String, Amount> asked = BudgetMeasure.of(pool.get(), profile, counted.quantity(), c.start(), end);
        SortedMap<String, Amount> extra = new TreeMap<>();
        asked.forEach((m, a) -> {
            Amount more = a.minus(counted.months().getOrDefault(m, Amount.ZERO)).atLeastZero();
            if (more.gpuHours().signum() > 0 || more.cost().signum() > 0) {
                extra.put(m, more);
            }
        });
        Optional<BookingEvent.BookingRejected> refused = refuse(ledger, c, c.bookingId(), extra, now);
        if (refused.isPresent()) {
            return finish(ledger, before, new TreeSet<>(extra.keySet()), null, refused.get());
        }
        if (!extra.isEmpty()) {
            putHold(ledger, c.requestId(), new Hold(c.bookingId(), false, extra, now));
        }
        return finish(ledger, before, new TreeSet<>(extra.keySet()), c.withBudgetHold(carried(ledger, extra)), null);
    }

    private BudgetDecision series(
            LedgerAccess ledger, SortedMap<String, Amount> before, BookingCommand.CreateSeries s, Instant now) {
        Optional<SortedMap<String, Amount>> needed = measureSeries(s);
        if (needed.isEmpty()) {
            return finish(ledger, before, new TreeSet<>(), s, null);
        }
        Optional<BookingEvent.BookingRejected> refused = refuse(ledger, s, s.seriesId(), needed.get(), now);
        if (refused.isPresent()) {
            return finish(ledger, before, new TreeSet<>(needed.get().keySet()), null, refused.get());
        }
        // Occurrences have fixed windows: each one the pool's decider books is one of those measured here.
        putHold(ledger, s.requestId(), new Hold(s.seriesId(), false, needed.get(), now));
        return finish(ledger, before, new TreeSet<>(needed.get().keySet()), s, null);
    }

    private BudgetDecision outcome(
            LedgerAccess ledger, SortedMap<String, Amount> before, BudgetCommand.BookingOutcome o) {
        SortedSet<String> touched = new TreeSet<>();
        switch (o.outcome()) {
            case WAITING -> {
                Hold hold = o.requestId() == null ? null : ledger.hold(o.requestId());
                if (hold != null && hold.bookingId().equals(o.bookingId())) {
                    putHold(ledger, o.requestId(), new Hold(hold.bookingId(), true, hold.months(), hold.at()));
                }
            }
            case ENDED -> touched.addAll(dropWaiting(ledger, o.bookingId()));
            case DECIDED -> {
                // The first event carrying the request's id answers it (a move made for it carries none); an
                // idempotent replay answers with the original booking, whose id is not the one held for.
                Hold hold = o.requestId() == null ? null : ledger.hold(o.requestId());
                if (hold != null) {
                    putHold(ledger, o.requestId(), null);
                    touched.addAll(hold.months().keySet());
                }
                if (o.requestId() == null && !o.bookings().isEmpty()) {
                    touched.addAll(dropWaiting(ledger, o.bookingId())); // a waiting request booked by the engine
                }
                for (Booking booking : o.bookings()) {
                    touched.addAll(count(ledger, booking));
                }
            }
        }
        return finish(ledger, before, touched, null, null);
    }

    private static SortedSet<String> dropWaiting(LedgerAccess ledger, String bookingId) {
        SortedSet<String> touched = new TreeSet<>();
        SortedSet<String> waiting = ledger.summary().waiting().get(bookingId);
        for (String requestId : waiting == null ? List.<String>of() : List.copyOf(waiting)) {
            Hold hold = ledger.hold(requestId);
            if (hold != null) {
                touched.addAll(hold.months().keySet());
            }
            putHold(ledger, requestId, null);
        }
        return touched;
    }

    /**
     * Replaces (null: removes) what request {@code requestId} holds, keeping the summary's held totals and its index
     * of waiting holds equal to the items.
     */
    private static void putHold(LedgerAccess ledger, String requestId, Hold hold) {
        TenantSummary summary = ledger.summary();
        Hold old = ledger.hold(requestId);
        if (old != null) {
            summary.add(false, old.months(), -1);
            unindex(summary, old, requestId);
        }
        if (hold == null) {
            if (old != null) {
                ledger.removeHold(requestId);
            }
            return;
        }
        summary.add(false, hold.months(), 1);
        if (hold.waiting()) {
            summary.waiting()
                    .computeIfAbsent(hold.bookingId(), b -> new TreeSet<>())
                    .add(requestId);
        }
        ledger.putHold(requestId, hold);
    }

    private static void unindex(TenantSummary summary, Hold hold, String requestId) {
        SortedSet<String> waiting = summary.waiting().get(hold.bookingId());
        if (waiting != null) {
            waiting.remove(requestId);
            if (waiting.isEmpty()) {
                summary.waiting().remove(hold.bookingId());
            }
        }
    }

    /** Replaces (null: removes) what booking {@code id} counts, keeping the summary's totals equal to the items. */
    private static void putBooking(LedgerAccess ledger, String id, Counted counted) {
        TenantSummary summary = ledger.summary();
        Counted old = ledger.booking(id);
        if (old != null) {
            summary.add(old.booked(), old.months(), -1);
        }
        if (counted == null) {
            if (old != null) {
                ledger.removeBooking(id);
            }
            return;
        }
        summary.add(counted.booked(), counted.months(), 1);
        ledger.putBooking(id, counted);
    }

    /**
     * Forgets the closed months (the summary's budgets, thresholds told, refusals and totals; what bookings and holds
     * count in them: a hold left with nothing is dropped, a booking once the month its window ends in is closed) and
     * the idempotency keys first used more than the retention before the clock. Called when the clock enters a new
     * month, the only time a month closes; a function of the state alone, so a replay prunes the same. Items keep
     * counting only open months, so trimming them leaves the open months' totals as they are.
     */
    private void prune(LedgerAccess ledger) {
        TenantSummary summary = ledger.summary();
        if (summary.clock() == null) {
            return;
        }
        summary.pruneMonths();
        Instant keptFrom = summary.clock().minus(keyRetention);
        Set<String> dropped = new TreeSet<>();
        ledger.sweep(
                c -> (c.lastMonth() == null ? c.months().isEmpty() : summary.closed(c.lastMonth()))
                        ? null
                        : new Counted(
                                c.version(),
                                c.booked(),
                                c.resource(),
                                c.quantity(),
                                summary.open(c.months()),
                                c.lastMonth()),
                h -> {
                    SortedMap<String, Amount> open = summary.open(h.months());
                    if (open.isEmpty()) {
                        dropped.add(h.bookingId());
                        return null;
                    }
                    return new Hold(h.bookingId(), h.waiting(), open, h.at());
                },
                k -> !k.at().isBefore(keptFrom));
        if (!dropped.isEmpty()) {
            // Waiting holds dropped: keep only the request ids whose holds are still there.
            for (String bookingId : dropped) {
                SortedSet<String> waiting = summary.waiting().get(bookingId);
                if (waiting != null) {
                    waiting.removeIf(id -> ledger.hold(id) == null);
                    if (waiting.isEmpty()) {
                        summary.waiting().remove(bookingId);
                    }
                }
            }
        }
    }

    /** Counts a booking in its new state (an older version than the one counted is ignored). */
    private SortedSet<String> count(LedgerAccess ledger, Booking booking) {
        SortedSet<String> touched = new TreeSet<>();
        Counted old = ledger.booking(booking.id());
        if (old != null && old.version() > booking.version()) {
            return touched;
        }
        Optional<Pool> pool = pools.find(booking.pool());
        if (pool.isEmpty()) {
            return touched;
        }
        SortedMap<String, Amount> months = ledger.summary().open(BudgetMeasure.of(pool.get(), booking));
        if (old != null) {
            touched.addAll(old.months().keySet());
        }
        touched.addAll(months.keySet());
        String lastMonth = BudgetMeasure.monthOf(booking.end());
        if (ledger.summary().closed(lastMonth)) {
            putBooking(ledger, booking.id(), null);
        } else {
            // Kept even when it counts nothing now, so an older state read later is not counted again.
            putBooking(
                    ledger,
                    booking.id(),
                    new Counted(
                            booking.version(),
                            BudgetMeasure.booked(booking.state()),
                            booking.resource(),
                            booking.quantity(),
                            months,
                            lastMonth));
        }
        return touched;
    }

    /** The refusal when {@code needed} would take a budgeted month over its budget (the first such month). */
    private static Optional<BookingEvent.BookingRejected> refuse(
            LedgerAccess ledger, BookingCommand c, String bookingId, Map<String, Amount> needed, Instant now) {
        for (Map.Entry<String, Amount> e : needed.entrySet()) {
            Limit limit = ledger.summary().budgets().get(e.getKey());
            if (limit == null) {
                continue;
            }
            BigDecimal booked = ledger.summary().booked(e.getKey()).in(limit.unit());
            BigDecimal held = ledger.summary().held(e.getKey()).in(limit.unit());
            BigDecimal need = e.getValue().in(limit.unit());
            if (need.signum() > 0 && booked.add(held).add(need).compareTo(limit.limit()) > 0) {
                ledger.summary().refused().add(e.getKey());
                String unit = BudgetMeasure.unitName(limit.unit());
                String money = limit.currency() == null ? "" : " " + limit.currency();
                String message = "the request needs " + need.toPlainString() + money + " " + unit + " in "
                        + e.getKey() + "; the budget is " + limit.limit().toPlainString() + money + ", "
                        + booked.toPlainString() + " booked and " + held.toPlainString() + " held";
                return Optional.of(new BookingEvent.BookingRejected(
                        c.requestId(),
                        bookingId,
                        c.pool(),
                        ledger.summary().tenant(),
                        Rejection.BUDGET_EXCEEDED.name(),
                        message,
                        List.of(),
                        null,
                        now,
                        new BudgetFigures(
                                e.getKey(), limit.unit(), limit.limit(), limit.currency(), booked, held, need)));
            }
        }
        return Optional.empty();
    }

    /**
     * The hold the pool's decider checks the request against: in the unit of the months' budgets, or null when no
     * month it touches has one (nothing to keep under) or their units differ (then only this stage's check applies).
     */
    private static BudgetHold carried(LedgerAccess ledger, Map<String, Amount> months) {
        TenantBudget.Unit unit = null;
        for (String month : months.keySet()) {
            Limit limit = ledger.summary().budgets().get(month);
            if (limit == null) {
                continue;
            }
            if (unit != null && unit != limit.unit()) {
                return null;
            }
            unit = limit.unit();
        }
        return unit == null ? null : BudgetMeasure.hold(unit, months);
    }

    /** The create's window as the pool's decider will take it; a book-now from this stage's instant. */
    private Optional<SortedMap<String, Amount>> measureCreate(BookingCommand.CreateBooking c, Instant now) {
        Optional<Pool> pool = pools.find(c.pool());
        if (pool.isEmpty() || (c.end() == null) == (c.duration() == null)) {
            return Optional.empty();
        }
        Instant start = c.startsNow() ? now : c.start();
        Instant end = c.end() != null ? c.end() : policy.endAfter(start, c.duration());
        try {
            if (c.waits()) {
                return Optional.of(widest(pool.get(), c, start, end));
            }
            return Optional.of(BudgetMeasure.of(pool.get(), c.profile(), c.quantity(), start, end));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // a profile the pool does not weigh: the decider refuses it
        }
    }

    /**
     * What a request that may wait needs: it may be booked at any start from its own to its latest start (at once, at
     * the first start that fits, or later by the waitlist, no further budget check on the way), for its length, and a
     * start taken at the decision's instant has its end aligned up (less than one alignment step more). So it holds,
     * in every month, the most a window of its length plus one alignment step puts there starting anywhere in that
     * range: whichever start the engine books, every month it lands in was checked for at least what it takes there.
     */
    private SortedMap<String, Amount> widest(Pool pool, BookingCommand.CreateBooking c, Instant start, Instant end) {
        Duration length = c.duration() != null ? c.duration() : Duration.between(start, end);
        return BudgetMeasure.widest(
                pool, c.profile(), c.quantity(), start, c.latestStart(), length.plus(policy.alignment()));
    }

    /** The total of a series' occurrences, expanded as the pool's decider expands them. */
    private Optional<SortedMap<String, Amount>> measureSeries(BookingCommand.CreateSeries s) {
        Optional<Pool> pool = pools.find(s.pool());
        if (pool.isEmpty() || s.start() == null || (s.end() == null) == (s.duration() == null)) {
            return Optional.empty();
        }
        try {
            Instant end = s.end() != null ? s.end() : policy.endAfter(s.start(), s.duration());
            SortedMap<String, Amount> total = new TreeMap<>();
            for (Recurrence.Occurrence o :
                    Recurrence.expand(RecurrenceRule.parse(s.rule()), Recurrence.zone(s.timeZone()), s.start(), end)) {
                BudgetMeasure.of(pool.get(), s.profile(), s.quantity(), o.start(), o.end())
                        .forEach((m, a) -> total.merge(m, a, Amount::plus));
            }
            return Optional.of(total);
        } catch (RuntimeException e) {
            return Optional.empty(); // a rule the decider refuses (INVALID_RECURRENCE): nothing to hold
        }
    }

    /** The ledger after the command, the states of the budgeted months it touched and the thresholds reached. */
    private static BudgetDecision finish(
            LedgerAccess ledger,
            SortedMap<String, Amount> before,
            SortedSet<String> touched,
            BookingCommand forward,
            BookingEvent.BookingRejected refusal) {
        // Stamped with the tenant's clock, not the record's time: a state never looks older than the one before it.
        Instant now = ledger.summary().clock();
        List<TenantBudget> states = new ArrayList<>();
        List<Notice.BudgetThresholdReached> notices = new ArrayList<>();
        for (String month : touched) {
            Amount taken = ledger.summary().taken(month);
            Amount was = before.getOrDefault(month, Amount.ZERO);
            if (taken.gpuHours().compareTo(was.gpuHours()) < 0 || taken.cost().compareTo(was.cost()) < 0) {
                ledger.summary().refused().remove(month); // something was given back
            }
            Limit limit = ledger.summary().budgets().get(month);
            if (limit == null) {
                continue;
            }
            BigDecimal booked = ledger.summary().booked(month).in(limit.unit());
            BigDecimal held = ledger.summary().held(month).in(limit.unit());
            boolean over = booked.add(held).compareTo(limit.limit()) >= 0
                    || ledger.summary().refused().contains(month);
            states.add(new TenantBudget(
                    ledger.summary().tenant(),
                    month,
                    limit.unit(),
                    limit.limit(),
                    limit.currency(),
                    booked,
                    held,
                    over,
                    now));
            SortedSet<Integer> told = ledger.summary().told().computeIfAbsent(month, m -> new TreeSet<>());
            for (int percent : THRESHOLDS) {
                if (!told.contains(percent) && reached(booked, limit.limit(), percent)) {
                    told.add(percent);
                    notices.add(new Notice.BudgetThresholdReached(
                            Notice.budgetThresholdId(ledger.summary().tenant(), month, percent),
                            ledger.summary().tenant(),
                            month,
                            percent,
                            limit.unit(),
                            limit.limit(),
                            limit.currency(),
                            booked,
                            now));
                }
            }
        }
        return new BudgetDecision(null, forward, refusal, states, notices);
    }

    /** booked ≥ percent % of the limit; a zero budget is reached by anything booked at all. */
    static boolean reached(BigDecimal booked, BigDecimal limit, int percent) {
        if (limit.signum() == 0) {
            return booked.signum() > 0;
        }
        return booked.multiply(HUNDRED).compareTo(limit.multiply(BigDecimal.valueOf(percent))) >= 0;
    }

    /** booked + held per open month with a figure, before the command (the summary's totals: a few months). */
    private static SortedMap<String, Amount> takenPerMonth(LedgerAccess ledger) {
        TenantSummary summary = ledger.summary();
        SortedMap<String, Amount> taken = new TreeMap<>(summary.booked());
        summary.held().forEach((month, amount) -> taken.merge(month, amount, Amount::plus));
        return taken;
    }
}
