package io.gpuaas.deploy;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects. Not a full parser: it removes what cannot be a metric name (string
 * literals, label matchers, range selectors, grouping label lists, numbers, durations, Grafana variables) and keeps
 * the identifiers that are neither functions (followed by a parenthesis) nor keywords. Sufficient for the queries of
 * this module, whose syntax promtool also checks.
 */
final class PromQl {

    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "bool",
            "offset",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "inf",
            "nan",
            "start",
            "end");
    private static final Pattern STRINGS = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern GRAFANA_VARS = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern OFFSETS = Pattern.compile("\\boffset\\s+-?[0-9a-z]+");
    private static final Pattern NUMBERS =
            Pattern.compile("(?<![A-Za-z_:0-9])[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?[a-z]*");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?");

    private PromQl() {}

    static Set<String> metricNames(String expression) {
        String e = STRINGS.matcher(expression).replaceAll(" ");
        e = GRAFANA_VARS.matcher(e).replaceAll(" ");
        e = MATCHERS.matcher(e).replaceAll(" ");
        e = RANGES.matcher(e).replaceAll(" ");
        e = GROUPING.matcher(e).replaceAll(" ");
        e = OFFSETS.matcher(e).replaceAll(" ");
        e = NUMBERS.matcher(e).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(e);
        while (m.find()) {
            String token = m.group();
            if (m.group(1) != null || KEYWORDS.contains(token)) {
                continue;
            }
            names.add(token);
        }
        return names;
    }
}
