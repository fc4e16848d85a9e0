package io.gpuaas.metrics.ledger;

import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadDeleted;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * When each Workload held admitted GPU units, from {@code gpuaas.kueue-workloads}: a span opens at the first record
 * that shows it admitted (active, not finished) and closes at the first that does not, at its deletion, or when its
 * admitted units change (then a new one opens). Records of one Workload come in order (keyed by it); records of
 * different Workloads never touch each other's spans, so the spans do not depend on how the partitions interleave.
 * Only resources the pool catalog knows are counted; their quantities must be whole units.
 */
final class AdmissionSpans {

    private record Open(String namespace, Map<String, Long> units, long from) {}

    private final Set<String> gpuResources;
    private final Map<String, Open> open = new HashMap<>();
    private final List<Span> closed = new ArrayList<>();

    AdmissionSpans(Set<String> gpuResources) {
        this.gpuResources = gpuResources;
    }

    void apply(String key, WorkloadEvent event) {
        long at = event.time().toEpochMilli();
        Map<String, Long> units =
                switch (event) {
                    case WorkloadObserved w when w.active() && w.admitted() && !w.finished() -> units(w.admission());
                    case WorkloadObserved w -> Map.of();
                    case WorkloadDeleted d -> Map.of();
                    // quota-projector's proof that the feed is live: its own key, never a Workload's span.
                    case WorkloadEvent.FeedWatermark mark -> Map.of();
                };
        Open current = open.get(key);
        if (current != null && current.units.equals(units)) {
            return;
        }
        if (current != null) {
            close(current, at);
            open.remove(key);
        }
        if (!units.isEmpty()) {
            open.put(key, new Open(event.namespace(), units, at));
        }
    }

    /** Per {@code flavor \u0000 resource}, the units admitted; the flavor is the one Kueue admitted the resource on. */
    private Map<String, Long> units(List<PodSetAdmission> admission) {
        Map<String, Long> units = new TreeMap<>();
        for (PodSetAdmission podSet : admission == null ? List.<PodSetAdmission>of() : admission) {
            Map<String, String> usage = podSet.resourceUsage() == null ? Map.of() : podSet.resourceUsage();
            Map<String, String> flavors = podSet.flavors() == null ? Map.of() : podSet.flavors();
            usage.forEach((resource, quantity) -> {
                String flavor = flavors.get(resource);
                if (flavor != null && gpuResources.contains(resource)) {
                    units.merge(flavor + '\u0000' + resource, wholeUnits(resource, quantity), Long::sum);
                }
            });
        }
        units.values().removeIf(u -> u == 0);
        return units;
    }

    private static long wholeUnits(String resource, String quantity) {
        try {
            return new BigDecimal(quantity).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(resource + " admitted as " + quantity + ", not a whole number of units");
        }
    }

    private void close(Open span, long at) {
        if (at <= span.from) {
            return;
        }
        span.units.forEach((flavorResource, units) -> closed.add(span(span, flavorResource, units, at)));
    }

    private static Span span(Open span, String flavorResource, long units, long to) {
        int cut = flavorResource.indexOf('\u0000');
        return new Span(
                span.namespace,
                flavorResource.substring(0, cut),
                flavorResource.substring(cut + 1),
                units,
                span.from,
                to);
    }

    /** Forgets the closed spans that ended by {@code cutoff}: only sealed days needed them. */
    void dropEndedBy(long cutoff) {
        closed.removeIf(s -> s.to() <= cutoff);
    }

    /** Every span, the open ones ending at {@code asOf}, in {@link Span#ORDER}. */
    List<Span> spans(long asOf) {
        List<Span> all = new ArrayList<>(closed);
        open.values()
                .forEach(o -> o.units.forEach((fr, units) -> {
                    if (asOf > o.from) {
                        all.add(span(o, fr, units, asOf));
                    }
                }));
        all.sort(Span.ORDER);
        return all;
    }
}
