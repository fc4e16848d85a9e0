package io.gpuaas.bench;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The command line every bench main shares: {@code --key value} pairs and {@code --switch}es (a key followed by
 * another key or by nothing is {@code true}), read once with typed getters whose defaults sit beside the key. A
 * malformed line (a word where a key belongs, a value that is not a number where one is needed) is an
 * {@link IllegalArgumentException} naming the option, never a silently ignored argument.
 */
public final class BenchOptions {

    private final Map<String, String> given;

    private BenchOptions(Map<String, String> given) {
        this.given = Collections.unmodifiableMap(given);
    }

    /** Reads the options, in the order given (a bench's reproduce line prints them back). */
    public static BenchOptions of(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        int i = 0;
        while (i < args.length) {
            if (!isKey(args[i])) {
                throw new IllegalArgumentException("expected --option, not " + args[i]);
            }
            boolean hasValue = i + 1 < args.length && !isKey(args[i + 1]);
            given.put(args[i].substring(2), hasValue ? args[i + 1] : "true");
            i += hasValue ? 2 : 1;
        }
        return new BenchOptions(given);
    }

    private static boolean isKey(String arg) {
        return arg.startsWith("--") && arg.length() > 2;
    }

    /** Whether {@code --key} was given. */
    public boolean has(String key) {
        return given.containsKey(key);
    }

    /** The value of {@code --key}, if given. */
    public Optional<String> text(String key) {
        return Optional.ofNullable(given.get(key));
    }

    public String text(String key, String fallback) {
        return given.getOrDefault(key, fallback);
    }

    public Path path(String key, String fallback) {
        return Path.of(text(key, fallback));
    }

    public int integer(String key, int fallback) {
        return parsed(key, fallback, Integer::valueOf, "a whole number");
    }

    public long longInteger(String key, long fallback) {
        return parsed(key, fallback, Long::valueOf, "a whole number");
    }

    public double decimal(String key, double fallback) {
        return parsed(key, fallback, Double::valueOf, "a number");
    }

    /** {@code --key} alone, or {@code --key true|false}; anything else is refused rather than read as false. */
    public boolean flag(String key, boolean fallback) {
        return parsed(
                key,
                fallback,
                v -> switch (v) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    default -> throw new IllegalArgumentException(v);
                },
                "true or false");
    }

    /** The options as given, in order. */
    public Map<String, String> given() {
        return given;
    }

    /** {@code  --key value --key value}: the options as given, for a reproduce line after the main class. */
    public String arguments() {
        StringBuilder line = new StringBuilder();
        given.forEach((k, v) -> line.append(" --").append(k).append(' ').append(v));
        return line.toString();
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

    private <T> T parsed(String key, T fallback, java.util.function.Function<String, T> parse, String what) {
        String value = given.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return parse.apply(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + key + " must be " + what + ", not " + value, e);
        }
    }
}
