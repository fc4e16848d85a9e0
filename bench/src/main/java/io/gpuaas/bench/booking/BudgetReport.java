package io.gpuaas.bench.booking;

import io.gpuaas.booking.budget.BudgetDecider;
import io.gpuaas.booking.model.Rejection;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.notice.Notice;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The budget replay's section of the booking report: the rule, refusals by reason, the budget shares' figures, the
 * checks, and the replay's decision latency beside the raw round trip of the same run. Prints the figures the suite
 * reads as {@code RESULT} lines, and a {@code PROBLEM} line for each check that failed.
 */
final class BudgetReport {

    private static final String BUDGET = Rejection.BUDGET_EXCEEDED.name();

    private BudgetReport() {}

    static void append(StringBuilder md, BudgetReplay.Outcome o) {
        int replayed = o.requests().size();
        md.append("### The openb replay with monthly GPU-hour budgets (issue 30)\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%d of the trace's %d GPU pods as creates on the real path, on a broker with SASL and "
                                + "booking-service's ACLs: each a HoldCreate keyed by tenant on gpuaas.budget-commands, "
                                + "as an HTTP create is written, which the budget stage refuses BUDGET_EXCEEDED or "
                                + "forwards with its hold to the pool's writer; in creation order at %d/s. Pools and "
                                + "tenants as in the openb replay above (tenant-k: k = the low 4 bits of the pod name's "
                                + "hash). "
                                + "The pool decider decides on the wall clock and refuses windows ending more than 90 "
                                + "days ahead, so trace day %d is placed at %s (the first instant of the next UTC month) "
                                + "and each pod is booked ahead for its own [creation, deletion), aligned outwards to "
                                + "15 min; the %d pods created before day %d are left out%s.%n%n",
                        replayed,
                        o.pods(),
                        o.rate(),
                        BudgetReplay.FIRST_DAY,
                        o.base(),
                        o.earlier(),
                        BudgetReplay.FIRST_DAY,
                        o.every() > 1 ? ", and of the rest every " + o.every() + "th is replayed (--quick)" : ""))
                .append("**Budgets** (GPU-hours per tenant and UTC month, set before the replay as the admin API "
                        + "sets them: a SetBudget on gpuaas.budget-commands, applied by the engine's stage): tenant-k "
                        + "gets 50, 80, 100 or 120 % (k mod 4) of its own demand in the month, the GPU-hours all its "
                        + "replayed requests ask for there (MIG units weighed as a share of a GPU, a window split at "
                        + "the month's end, as the stage measures it). Each tenant is thus held to what it actually "
                        + "asked for: the 50 % and 80 % tenants cannot have all they ask and are refused some, the 100 % "
                        + "and 120 % tenants never may be refused for budget (the stage counts a request once, held or booked, so the "
                        + "requests together never need more than the demand): four tenants at each share, the check's "
                        + "edge included.\n\n");
        answers(md, o);
        shares(md, o);
        checks(md, o);
        latency(md, o);
    }

    private static void answers(StringBuilder md, BudgetReplay.Outcome o) {
        md.append("| answer | requests | GPU-hours asked |\n|---|---|---|\n");
        o.tally()
                .answers(r -> true)
                .forEach((answer, a) ->
                        md.append(String.format(Locale.ROOT, "| %s | %d | %.0f |%n", answer, a.count(), a.gpuHours())));
        md.append('\n');
    }

    private static void shares(StringBuilder md, BudgetReplay.Outcome o) {
        md.append("| budget share of demand | tenant-months | demand GPU-h | budget GPU-h | booked GPU-h |"
                        + " highest booked of a budget | refused for budget | their GPU-h |"
                        + " notices 50 / 80 / 100 % |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        Map<String, BigDecimal> booked = o.tally().booked();
        for (BigDecimal share : BudgetReplay.SHARES) {
            Predicate<String> ofShare =
                    key -> BudgetReplay.share(BudgetReplay.tenantOfKey(key)).compareTo(share) == 0;
            List<String> keys = o.limits().keySet().stream().filter(ofShare).toList();
            BudgetTally.Answers refused = o.tally()
                    .answers(r -> BudgetReplay.share(r.tenant()).compareTo(share) == 0)
                    .getOrDefault(BUDGET, BudgetTally.Answers.NONE);
            int[] told = new int[BudgetDecider.THRESHOLDS.size()];
            distinct(o.notices()).stream()
                    .filter(n -> ofShare.test(TenantBudget.key(n.tenant(), n.month())))
                    .forEach(n -> told[BudgetDecider.THRESHOLDS.indexOf(n.percent())]++);
            md.append(String.format(
                    Locale.ROOT,
                    "| %.0f %% | %d | %.0f | %.0f | %.0f | %.1f %% | %d | %.0f | %d / %d / %d |%n",
                    share.doubleValue() * 100,
                    keys.size(),
                    sum(keys, o.demand()),
                    sum(keys, o.limits()),
                    sum(keys, booked),
                    keys.stream()
                            .mapToDouble(
                                    k -> percentOf(booked.get(k), o.limits().get(k)))
                            .max()
                            .orElse(0),
                    refused.count(),
                    refused.gpuHours(),
                    told[0],
                    told[1],
                    told[2]));
        }
        md.append('\n');
    }

    /** The checks: stated in the report, a PROBLEM line each when one fails (over budget has failed the run already). */
    private static void checks(StringBuilder md, BudgetReplay.Outcome o) {
        Map<String, BigDecimal> booked = o.tally().booked();
        long agree = o.limits().keySet().stream()
                .filter(k -> o.stage().containsKey(k)
                        && o.stage().get(k).booked().compareTo(booked.getOrDefault(k, BigDecimal.ZERO)) == 0)
                .count();
        double highest = o.limits().keySet().stream()
                .mapToDouble(k -> percentOf(booked.get(k), o.limits().get(k)))
                .max()
                .orElse(0);
        int distinct = distinct(o.notices()).size();
        md.append(String.format(
                Locale.ROOT,
                "Booked ≤ budget in every one of the %d budgeted tenant-months (checked on the confirmations read "
                        + "back, measured as the stage measures them; the bench fails otherwise), at most %.1f %% of "
                        + "a budget. The stage's own figures on gpuaas.budgets agree in %d of %d months%s. %d threshold "
                        + "notices read, %d distinct (tenant, month, threshold).%n%n",
                o.limits().size(),
                highest,
                agree,
                o.limits().size(),
                o.settled() ? ", nothing left held" : ", NOT settled within 2 min",
                o.notices().size(),
                distinct));
        List<String> problems = new ArrayList<>();
        if (o.tally().answered() < o.requests().size()) {
            problems.add(
                    "answered " + o.tally().answered() + " of " + o.requests().size() + " requests");
        }
        if (!o.settled() || agree < o.limits().size()) {
            problems.add("the stage's figures agree with the confirmations in " + agree + " of "
                    + o.limits().size() + " months" + (o.settled() ? "" : ", holds left after 2 min"));
        }
        int wrong = o.tally()
                .answers(r -> BudgetReplay.share(r.tenant()).compareTo(BigDecimal.ONE) >= 0)
                .getOrDefault(BUDGET, BudgetTally.Answers.NONE)
                .count();
        if (wrong > 0) {
            problems.add(wrong + " requests of tenants budgeted at 100 % or more of their demand refused for budget");
        }
        if (distinct < o.notices().size()) {
            problems.add((o.notices().size() - distinct) + " threshold notices read more than once");
        }
        problems.forEach(p -> System.out.println("PROBLEM budget replay: " + p));
        System.out.printf(Locale.ROOT, "RESULT booking.budget.highest_booked_of_budget_pct %.2f%n", highest);
        System.out.printf(
                Locale.ROOT,
                "RESULT booking.budget.refused_for_budget %d%n",
                o.tally()
                        .answers(r -> true)
                        .getOrDefault(BUDGET, BudgetTally.Answers.NONE)
                        .count());
    }

    private static void latency(StringBuilder md, BudgetReplay.Outcome o) {
        md.append("| run | requests | seconds | per s | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|\n");
        for (DecisionLatencyBench.Result r : List.of(o.raw(), o.decisions())) {
            md.append(String.format(Locale.ROOT, "| %s |%n", r.leadingCells()));
        }
        double p99 = o.decisions().latencyMicros().getValueAtPercentile(99) / 1000.0;
        double raw = o.raw().latencyMicros().getValueAtPercentile(99) / 1000.0;
        md.append(String.format(
                Locale.ROOT,
                "%nDecision p99 at %d/s through the budget stage, budgets set: %.1f ms, beside a raw round-trip p99 "
                        + "of %.1f ms on the same broker in the same run (intended send → committed answer read; a "
                        + "budget refusal is the stage's own answer, without the pool's hop).%n%n",
                o.rate(),
                p99,
                raw));
        System.out.printf(Locale.ROOT, "RESULT booking.budget.decision_p99_ms %.2f%n", p99);
        System.out.printf(Locale.ROOT, "RESULT booking.budget.raw_rt_p99_ms %.2f%n", raw);
    }

    /** The notices without a second copy of any (a notice's id names its tenant, month and threshold). */
    private static List<Notice.BudgetThresholdReached> distinct(List<Notice.BudgetThresholdReached> notices) {
        Set<String> ids = new HashSet<>();
        return notices.stream().filter(n -> ids.add(n.noticeId())).toList();
    }

    private static double sum(List<String> keys, Map<String, BigDecimal> figures) {
        return keys.stream()
                .map(k -> figures.getOrDefault(k, BigDecimal.ZERO))
                .reduce(BigDecimal.ZERO, BigDecimal::add)
                .doubleValue();
    }

    private static double percentOf(BigDecimal part, BigDecimal whole) {
        if (part == null || whole == null || whole.signum() == 0) {
            return 0;
        }
        return part.multiply(BigDecimal.valueOf(100))
                .divide(whole, MathContext.DECIMAL64)
                .doubleValue();
    }
}
