package io.gpuaas.metrics.ledger;

import java.util.Comparator;

/**
 * Units held over {@code [from, to)} (epoch milliseconds) in a namespace: a Workload's admitted units of one flavor
 * and resource, or the GPUs an idle reclaim freed (flavor and resource null).
 */
record Span(String namespace, String flavor, String resource, long units, long from, long to) {

    /** A total order, so that spans folded in any order are summed in the same one. */
    static final Comparator<Span> ORDER = Comparator.comparing(Span::namespace)
            .thenComparing(Span::flavor, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Span::resource, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparingLong(Span::from)
            .thenComparingLong(Span::to)
            .thenComparingLong(Span::units);

    /** This span ending at {@code until} at the latest; null when nothing of it is left. */
    Span clippedAt(long until) {
        long end = Math.min(to, until);
        return end > from ? new Span(namespace, flavor, resource, units, from, end) : null;
    }
}
