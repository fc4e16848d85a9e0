package io.gpuaas.bench.baseline;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the figures out of kafka-tools 4.1.1's printed summaries (their only output format). */
final class ToolOutput {

    /** ProducerPerformance's final line. */
    record Producer(double recordsPerSecond, double p99Millis) {}

    /** ConsumerPerformance's summary row. */
    record Consumer(double recordsPerSecond) {}

    /** EndToEndLatency's two lines (its percentiles are whole milliseconds). */
    record EndToEnd(double averageMillis, double p50Millis, double p99Millis) {}

    private static final Pattern PRODUCER = Pattern.compile(
            "(\\d+) records sent, ([\\d.]+) records/sec .*?, (\\d+) ms 50th, (\\d+) ms 95th, (\\d+) ms 99th");
    private static final Pattern AVERAGE = Pattern.compile("Avg latency: ([\\d.]+) ms");
    private static final Pattern PERCENTILES = Pattern.compile("Percentiles: 50th = (\\d+), 99th = (\\d+)");

    private ToolOutput() {}

    static Producer producer(String out) {
        Matcher m = PRODUCER.matcher(out);
        Producer last = null;
        while (m.find()) {
            last = new Producer(Double.parseDouble(m.group(2)), Double.parseDouble(m.group(5)));
        }
        if (last == null) {
            throw new IllegalStateException("no ProducerPerformance summary in:\n" + out);
        }
        return last;
    }

    static Consumer consumer(String out) {
        List<String> lines =
                out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        // Log lines of the tool's consumer may fall between the header and the figures: take the next line with as
        // many comma-separated fields as the header, starting with a date.
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("start.time")) {
                continue;
            }
            List<String> names =
                    Arrays.stream(lines.get(i).split(",")).map(String::strip).toList();
            int column = names.indexOf("nMsg.sec");
            for (int j = i + 1; j < lines.size() && column >= 0; j++) {
                List<String> values = Arrays.stream(lines.get(j).split(","))
                        .map(String::strip)
                        .toList();
                if (values.size() == names.size()
                        && Character.isDigit(values.get(0).charAt(0))) {
                    return new Consumer(Double.parseDouble(values.get(column)));
                }
            }
        }
        throw new IllegalStateException("no ConsumerPerformance summary in:\n" + out);
    }

    static EndToEnd endToEnd(String out) {
        Matcher avg = AVERAGE.matcher(out);
        Matcher pct = PERCENTILES.matcher(out);
        if (!avg.find() || !pct.find()) {
            throw new IllegalStateException("no EndToEndLatency summary in:\n" + out);
        }
        return new EndToEnd(
                Double.parseDouble(avg.group(1)), Double.parseDouble(pct.group(1)), Double.parseDouble(pct.group(2)));
    }
}
