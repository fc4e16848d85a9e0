package io.gpuaas.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The command-line conventions every bench main shares. */
public final class BenchOptions {

    private BenchOptions() {}

    /** {@code --key value} pairs, in the order given (a bench's reproduce line prints them back). */
    public static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return opts;
    }

    /** {@code key=value,key=value} (client or Streams overrides for experiments); blank for none. */
    public static Map<String, String> pairs(String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return out;
    }

    /** {@code --security both|on|off}: which brokers to measure on; both by default (on first, the production case). */
    public static List<Boolean> securityVariants(String option) {
        return switch (option) {
            case "both" -> List.of(true, false);
            case "on" -> List.of(true);
            case "off" -> List.of(false);
            default -> throw new IllegalArgumentException("--security must be both, on or off, not " + option);
        };
    }
}
