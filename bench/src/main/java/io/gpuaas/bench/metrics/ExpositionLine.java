package io.gpuaas.bench.metrics;

import java.util.Map;

/** Just enough of the Prometheus text format to turn a dcgm-exporter sample line into labels and a value. */
final class ExpositionLine {

    private ExpositionLine() {}

    /** Puts the line's name (as {@code __name__}) and labels into {@code labels}; returns where its value starts. */
    static int labels(String line, Map<String, String> labels) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        if (brace < 0 || brace > space) {
            labels.put("__name__", line.substring(0, space));
            return space;
        }
        labels.put("__name__", line.substring(0, brace));
        int pos = brace + 1;
        while (line.charAt(pos) != '}') {
            int equals = line.indexOf('=', pos);
            String key = line.substring(pos, equals).strip();
            StringBuilder value = new StringBuilder();
            pos = equals + 2;
            while (line.charAt(pos) != '"') {
                char c = line.charAt(pos++);
                value.append(c == '\\' ? unescape(line.charAt(pos++)) : c);
            }
            if (!value.isEmpty()) {
                labels.put(key, value.toString()); // Prometheus drops empty labels
            }
            pos++;
            if (line.charAt(pos) == ',') {
                pos++;
            }
        }
        return pos + 1;
    }

    static double value(String line, int from) {
        return Double.parseDouble(line.substring(from).strip().split(" ")[0]);
    }

    private static char unescape(char c) {
        return c == 'n' ? '\n' : c;
    }
}
