package io.gpuaas.deploy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Prometheus series the gpuaas code registers, read from its sources: prometheus-metrics builders
 * ({@code Counter.builder().name("x")}), snapshot builders ({@code GaugeSnapshot.builder().name("x")}) and the
 * {@code counter("x", ...)}/{@code gauge("x", ...)} helpers of a {@code *Metrics} collector. Each family expands into
 * the series names the text format writes (a counter {@code x} is {@code x_total}, a histogram has {@code _bucket},
 * {@code _count} and {@code _sum}...).
 *
 * <p>Read from source, not by running the collectors: this module builds alone ({@code -pl deploy/kubernetes})
 * without the services' jars. {@link #unrecognized()} keeps the extraction honest: a {@code "gpuaas_..."} literal in
 * a metrics class that none of the patterns understood fails the test instead of being silently skipped.
 */
final class ExportedSeries {

    /** Modules whose code registers metrics served on some /metrics. */
    static final List<String> MODULES =
            List.of("events", "service-kit", "booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");

    enum Type {
        COUNTER,
        GAUGE,
        HISTOGRAM,
        SUMMARY,
        INFO,
        STATESET,
        UNKNOWN
    }

    record Family(String name, Type type, String module) {
        List<String> seriesNames() {
            String base = type == Type.COUNTER && name.endsWith("_total") ? name.substring(0, name.length() - 6) : name;
            return switch (type) {
                case COUNTER -> List.of(base + "_total", base + "_created");
                case HISTOGRAM -> List.of(base + "_bucket", base + "_count", base + "_sum", base + "_created");
                case SUMMARY -> List.of(base, base + "_count", base + "_sum", base + "_created");
                case INFO -> List.of(base + "_info");
                case GAUGE, STATESET, UNKNOWN -> List.of(base);
            };
        }
    }

    private static final String NAME_ARG = "\\s*(\"[a-zA-Z_:][a-zA-Z0-9_:]*\"|[A-Za-z_][A-Za-z0-9_.]*)\\s*";
    private static final Pattern BUILDER = Pattern.compile(
            "\\b(Counter|Gauge|Histogram|Summary|Info|StateSet)(?:WithCallback)?\\.builder\\(\\)\\s*\\.name\\("
                    + NAME_ARG + "\\)");
    private static final Pattern SNAPSHOT = Pattern.compile(
            "\\b(Counter|Gauge|Histogram|Summary|Info|StateSet|Unknown)Snapshot\\.builder\\(\\)\\s*\\.name\\("
                    + NAME_ARG + "\\)");
    private static final Pattern HELPER =
            Pattern.compile("\\.(counter|gauge|histogram|summary)\\(\\s*(\"gpuaas_[a-z0-9_]+\")");
    /** service-kit's {@code SeriesPerRegistry} helpers: {@code counter(registry, NAME, help, labels...)}. */
    private static final Pattern REGISTRY_HELPER = Pattern.compile(
            "(?<![.\\w])(counter|gauge|histogram|summary)\\(\\s*[a-z][A-Za-z0-9_]*\\s*," + NAME_ARG + ",");

    private static final Pattern CONSTANT = Pattern.compile("\\bString\\s+([A-Z][A-Z0-9_]*)\\s*=\\s*\"([^\"]+)\"");
    private static final Pattern GPUAAS_LITERAL = Pattern.compile("\"(gpuaas_[a-z0-9_]+)\"");

    private final List<Family> families = new ArrayList<>();
    private final List<String> unrecognized = new ArrayList<>();

    private ExportedSeries() {}

    static ExportedSeries scan() {
        ExportedSeries series = new ExportedSeries();
        for (String module : MODULES) {
            for (JavaSources.SourceFile file : JavaSources.of(module)) {
                series.scanFile(module, file);
            }
        }
        return series;
    }

    List<Family> families() {
        return families;
    }

    /** Every series name a scrape of the gpuaas services can contain. */
    Set<String> seriesNames() {
        Set<String> names = new TreeSet<>();
        families.forEach(f -> names.addAll(f.seriesNames()));
        return names;
    }

    /** {@code "gpuaas_..."} literals in metrics classes that no pattern turned into a family. */
    List<String> unrecognized() {
        return unrecognized;
    }

    private void scanFile(String module, JavaSources.SourceFile file) {
        Map<String, String> constants = new HashMap<>();
        Matcher c = CONSTANT.matcher(file.code());
        while (c.find()) {
            constants.put(c.group(1), c.group(2));
        }
        Set<String> found = new TreeSet<>();
        for (Pattern p : List.of(BUILDER, SNAPSHOT, HELPER, REGISTRY_HELPER)) {
            Matcher m = p.matcher(file.code());
            while (m.find()) {
                String name = resolve(m.group(2), constants);
                if (name == null) {
                    // A variable (a helper's parameter, e.g. a Series helper) names the family at its call sites,
                    // which HELPER matches; an unresolved constant is a real miss.
                    if (Character.isUpperCase(m.group(2).charAt(m.group(2).lastIndexOf('.') + 1))) {
                        unrecognized.add(file.fileName() + ": name " + m.group(2) + " is not a constant of the file");
                    }
                    continue;
                }
                families.add(new Family(name, type(m.group(1)), module));
                found.add(name);
            }
        }
        boolean metricsClass = file.fileName().endsWith("Metrics.java")
                || file.path().toString().contains("/metrics/");
        if (metricsClass) {
            Matcher m = GPUAAS_LITERAL.matcher(file.code());
            while (m.find()) {
                if (!found.contains(m.group(1))) {
                    unrecognized.add(file.fileName() + ": " + m.group(1));
                }
            }
        }
    }

    private static String resolve(String arg, Map<String, String> constants) {
        if (arg.startsWith("\"")) {
            return arg.substring(1, arg.length() - 1);
        }
        String simple = arg.contains(".") ? arg.substring(arg.lastIndexOf('.') + 1) : arg;
        return constants.get(simple);
    }

    private static Type type(String token) {
        return switch (token.toLowerCase(java.util.Locale.ROOT)) {
            case "counter" -> Type.COUNTER;
            case "gauge" -> Type.GAUGE;
            case "histogram" -> Type.HISTOGRAM;
            case "summary" -> Type.SUMMARY;
            case "info" -> Type.INFO;
            case "stateset" -> Type.STATESET;
            default -> Type.UNKNOWN;
        };
    }
}
