package io.gpuaas.reclaim.model;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Applies annotation overrides to the service defaults: first the namespace's, then the workload's, so the most
 * specific wins. A malformed value is ignored (and reported) rather than guessed: the defaults stay conservative.
 */
public final class PolicyResolver {

    public static final String THRESHOLD = "gpuaas.io/idle-threshold";
    public static final String WINDOW = "gpuaas.io/idle-window";
    public static final String WARM_UP = "gpuaas.io/idle-warm-up";
    public static final String RECLAIM = "gpuaas.io/reclaim";

    private final IdlePolicy defaults;
    private final Consumer<String> invalid;

    /**
     * @param defaults the service-wide policy
     * @param invalid  told about every annotation value that could not be read (for a log line or a metric)
     */
    public PolicyResolver(IdlePolicy defaults, Consumer<String> invalid) {
        this.defaults = defaults;
        this.invalid = invalid;
    }

    public IdlePolicy defaults() {
        return defaults;
    }

    public IdlePolicy resolve(Map<String, String> namespaceAnnotations, Map<String, String> workloadAnnotations) {
        return apply(apply(defaults, namespaceAnnotations), workloadAnnotations);
    }

    private IdlePolicy apply(IdlePolicy policy, Map<String, String> annotations) {
        if (annotations == null || annotations.isEmpty()) {
            return policy;
        }
        IdlePolicy result = policy;
        String threshold = annotations.get(THRESHOLD);
        if (threshold != null) {
            Double ratio = parseRatio(threshold);
            result = ratio == null ? reject(result, THRESHOLD, threshold) : result.withThreshold(ratio);
        }
        String window = annotations.get(WINDOW);
        if (window != null) {
            Duration d = parseDuration(window);
            result = d == null || d.isZero() || d.compareTo(result.sampleInterval()) < 0
                    ? reject(result, WINDOW, window)
                    : result.withWindow(d);
        }
        String warmUp = annotations.get(WARM_UP);
        if (warmUp != null) {
            Duration d = parseDuration(warmUp);
            result = d == null ? reject(result, WARM_UP, warmUp) : result.withWarmUp(d);
        }
        String reclaim = annotations.get(RECLAIM);
        if (reclaim != null) {
            // Anything but an explicit "true" keeps a workload out: opting out must never be defeated by a typo.
            result = result.withReclaimEnabled("true".equalsIgnoreCase(reclaim.trim()));
        }
        return result;
    }

    private IdlePolicy reject(IdlePolicy policy, String key, String value) {
        invalid.accept(key + "=" + value);
        return policy;
    }

    /** {@code 0.05} or {@code 5%}; anything outside [0,1] is rejected. */
    static Double parseRatio(String text) {
        try {
            String t = text.trim();
            double v = t.endsWith("%")
                    ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100.0
                    : Double.parseDouble(t);
            return v >= 0 && v <= 1 && !Double.isNaN(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code 15m}, {@code 900s}, {@code 1h}, {@code 250ms} or ISO-8601 {@code PT15M}. */
    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt") || t.startsWith("p")) {
                return nonNegative(Duration.parse(t.toUpperCase(Locale.ROOT)));
            }
            if (t.endsWith("ms")) {
                return nonNegative(Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2))));
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> nonNegative(Duration.ofSeconds(n));
                case 'm' -> nonNegative(Duration.ofMinutes(n));
                case 'h' -> nonNegative(Duration.ofHours(n));
                default -> null;
            };
        } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
            return null;
        }
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? null : d;
    }
}
