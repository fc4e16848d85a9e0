package io.gpuaas.bench.booking;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Counters of the decision engine's stream threads and transactional producers, read from
 * {@link KafkaStreams#metrics()} before and after a run, so the report can say where a decision's time went:
 * how often the engine committed, and how long a commit took (producer flush, offsets into the transaction,
 * EndTxn).
 */
record EngineStats(Map<String, Double> totals) {

    private static final List<String> TOTALS = List.of(
            "commit-total",
            "process-total",
            "poll-total",
            "txn-commit-time-ns-total",
            "txn-send-offsets-time-ns-total",
            "flush-time-ns-total",
            "txn-begin-time-ns-total");

    static EngineStats of(KafkaStreams streams) {
        Map<String, Double> totals = new HashMap<>();
        if (streams != null) {
            for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
                String name = e.getKey().name();
                if (TOTALS.contains(name)
                        && isThreadOrProducer(e.getKey().group())
                        && e.getValue().metricValue() instanceof Double value
                        && Double.isFinite(value)) {
                    totals.merge(name, value, Double::sum);
                }
            }
        }
        return new EngineStats(totals);
    }

    private static boolean isThreadOrProducer(String group) {
        return group.equals("stream-thread-metrics") || group.equals("producer-metrics");
    }

    /** What happened between {@code before} and this snapshot, as one line for the report. */
    String since(EngineStats before, double seconds) {
        double commits = delta(before, "commit-total");
        double perCommit = Math.max(commits, 1) * 1e6;
        return String.format(
                Locale.ROOT,
                "%.0f commits/s, %.1f polls/s; per commit: flush %.2f ms, offsets %.2f ms, " + "EndTxn %.2f ms",
                commits / seconds,
                delta(before, "poll-total") / seconds,
                delta(before, "flush-time-ns-total") / perCommit,
                delta(before, "txn-send-offsets-time-ns-total") / perCommit,
                delta(before, "txn-commit-time-ns-total") / perCommit);
    }

    private double delta(EngineStats before, String name) {
        return totals.getOrDefault(name, 0.0) - before.totals.getOrDefault(name, 0.0);
    }
}
