package io.gpuaas.metrics.ledger;

import io.gpuaas.events.reclaim.ReclaimEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When idle reclaims held GPUs freed, from {@code gpuaas.reclaim-events}: a {@code Reclaimed} (not a dry run) opens
 * a span of its {@code gpusFreed} in the workload's namespace, the workload's next {@code Resumed} closes it. A
 * second Reclaimed while one is open keeps the first (the workload is already at zero).
 */
final class ReclaimSpans {

    private record Open(String namespace, long units, long from) {}

    private final Map<String, Open> open = new HashMap<>();
    private final List<Span> closed = new ArrayList<>();

    void apply(ReclaimEvent event) {
        String key = event.workload().key();
        long at = event.time().toEpochMilli();
        switch (event) {
            case ReclaimEvent.Reclaimed r
            when !r.dryRun() && r.gpusFreed() > 0 ->
                open.putIfAbsent(key, new Open(r.workload().namespace(), r.gpusFreed(), at));
            case ReclaimEvent.Resumed r -> {
                Open span = open.remove(key);
                if (span != null && at > span.from) {
                    closed.add(new Span(span.namespace, null, null, span.units, span.from, at));
                }
            }
            default -> {}
        }
    }

    /** Forgets the closed spans that ended by {@code cutoff}: only sealed days needed them. */
    void dropEndedBy(long cutoff) {
        closed.removeIf(s -> s.to() <= cutoff);
    }

    /** Every span, the open ones ending at {@code asOf}, in {@link Span#ORDER}. */
    List<Span> spans(long asOf) {
        List<Span> all = new ArrayList<>(closed);
        open.values().forEach(o -> {
            if (asOf > o.from) {
                all.add(new Span(o.namespace, null, null, o.units, o.from, asOf));
            }
        });
        all.sort(Span.ORDER);
        return all;
    }
}
