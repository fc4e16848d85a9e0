package io.gpuaas.metrics.remotewrite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Prometheus makes of an exporter's text when it scrapes it: one series per sample line, the target's labels
 * added (an exporter label that clashes with a target label becomes {@code exported_<name>}, as without
 * {@code honor_labels}), every sample stamped with the scrape's time. Enough of the text format for the real
 * dcgm-exporter files in the test resources (no per-line timestamps there).
 */
final class ExpositionSeries {

    private ExpositionSeries() {}

    static List<WriteRequests.TimeSeries> scrape(String text, Map<String, String> targetLabels, long timestampMillis) {
        List<WriteRequests.TimeSeries> series = new ArrayList<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int brace = trimmed.indexOf('{');
            int space = trimmed.indexOf(' ');
            String name = trimmed.substring(0, brace >= 0 && brace < space ? brace : space);
            Map<String, String> labels = new LinkedHashMap<>();
            int valueFrom = brace >= 0 && brace < space ? readLabels(trimmed, brace + 1, labels) : space;
            double value =
                    Double.parseDouble(trimmed.substring(valueFrom).strip().split(" ")[0]);
            Map<String, String> all = new LinkedHashMap<>();
            labels.forEach((k, v) -> all.put(targetLabels.containsKey(k) ? "exported_" + k : k, v));
            all.putAll(targetLabels);
            all.values().removeIf(String::isEmpty); // Prometheus drops empty labels
            series.add(WriteRequests.series(name, all, value, timestampMillis));
        }
        return series;
    }

    /** Reads {@code k="v",...}} from {@code from}; returns the index after the closing brace. */
    private static int readLabels(String line, int from, Map<String, String> labels) {
        int pos = from;
        while (line.charAt(pos) != '}') {
            int equals = line.indexOf('=', pos);
            String key = line.substring(pos, equals).strip();
            StringBuilder value = new StringBuilder();
            pos = equals + 2; // past ="
            while (line.charAt(pos) != '"') {
                char c = line.charAt(pos++);
                if (c == '\\') {
                    char escaped = line.charAt(pos++);
                    value.append(escaped == 'n' ? '\n' : escaped);
                } else {
                    value.append(c);
                }
            }
            labels.put(key, value.toString());
            pos++; // past the closing quote
            if (line.charAt(pos) == ',') {
                pos++;
            }
        }
        return pos + 1;
    }
}
