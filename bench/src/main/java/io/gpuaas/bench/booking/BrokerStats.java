package io.gpuaas.bench.booking;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The in-process broker's own request figures (JMX), printed after the latency runs: which requests failed and
 * why (e.g. CONCURRENT_TRANSACTIONS while the previous transaction's markers are still being written), and how
 * long the requests on the decision path spent in the broker.
 */
final class BrokerStats {

    private BrokerStats() {}

    static String report() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, String> lines = new TreeMap<>();
        try {
            for (ObjectName name :
                    server.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=ErrorsPerSec,*"), null)) {
                String error = name.getKeyProperty("error");
                long count = ((Number) server.getAttribute(name, "Count")).longValue();
                if (!"NONE".equals(error) && count > 0) {
                    lines.put("errors " + name.getKeyProperty("request") + " " + error, Long.toString(count));
                }
            }
            for (String request : new String[] {
                "Produce",
                "Fetch",
                "AddOffsetsToTxn",
                "TxnOffsetCommit",
                "EndTxn",
                "WriteTxnMarkers",
                "AddPartitionsToTxn"
            }) {
                ObjectName name =
                        new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=" + request);
                if (server.isRegistered(name)) {
                    lines.put(
                            "time " + request,
                            String.format(
                                    Locale.ROOT,
                                    "count %d mean %.2f ms p99 %.2f ms",
                                    ((Number) server.getAttribute(name, "Count")).longValue(),
                                    ((Number) server.getAttribute(name, "Mean")).doubleValue(),
                                    ((Number) server.getAttribute(name, "99thPercentile")).doubleValue()));
                }
            }
        } catch (Exception e) {
            return "broker figures unavailable: " + e;
        }
        StringBuilder out = new StringBuilder();
        lines.forEach((k, v) -> out.append(k).append(": ").append(v).append('\n'));
        return out.toString();
    }
}
