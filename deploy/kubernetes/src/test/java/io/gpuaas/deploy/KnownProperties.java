package io.gpuaas.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code gpuaas.*} configuration properties a service reads, from its sources and service-kit's:
 * {@code @ConfigurationProperties("prefix")} records (prefix + kebab-case component; a Map component accepts any
 * sub-key) and property names quoted in {@code @Value("${...}")}, {@code @Property(name = ...)} or
 * {@code @Requires(property = ...)}.
 */
final class KnownProperties {

    private static final Pattern CONFIG_RECORD =
            Pattern.compile("@ConfigurationProperties\\(\"([^\"]+)\"\\)\\s*public\\s+record\\s+\\w+\\s*\\(");
    private static final Pattern COMPONENT =
            Pattern.compile("([A-Za-z_][A-Za-z0-9_<>, ?.]*?)\\s+([a-z][A-Za-z0-9]*)\\s*$");
    private static final Pattern QUOTED = Pattern.compile("\"(?:\\$\\{)?(gpuaas\\.[a-z0-9.-]+)");

    private final Set<String> exact = new TreeSet<>();
    private final Set<String> prefixes = new TreeSet<>();

    static KnownProperties of(String... modules) {
        KnownProperties known = new KnownProperties();
        for (String module : modules) {
            JavaSources.of(module).forEach(f -> known.scan(f.code()));
        }
        return known;
    }

    boolean knows(String property) {
        return exact.contains(property) || prefixes.stream().anyMatch(p -> property.startsWith(p + "."));
    }

    Set<String> exact() {
        return exact;
    }

    private void scan(String code) {
        Matcher r = CONFIG_RECORD.matcher(code);
        while (r.find()) {
            String prefix = r.group(1);
            for (String component : components(code, r.end())) {
                Matcher c = COMPONENT.matcher(
                        component.replaceAll("@\\w+(\\([^)]*\\))?", " ").trim());
                if (c.find()) {
                    String key = prefix + "." + kebab(c.group(2));
                    exact.add(key);
                    if (c.group(1).trim().startsWith("Map<")
                            || c.group(1).trim().startsWith("List<")) {
                        prefixes.add(key);
                    }
                }
            }
        }
        Matcher q = QUOTED.matcher(code);
        while (q.find()) {
            exact.add(q.group(1));
        }
    }

    /** The comma-separated components of a record header starting at {@code start}, nesting-aware. */
    private static List<String> components(String code, int start) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (int i = start; i < code.length(); i++) {
            char ch = code.charAt(i);
            if (depth == 0 && ch == ')') {
                parts.add(current.toString());
                break;
            }
            if (depth == 0 && ch == ',') {
                parts.add(current.toString());
                current.setLength(0);
                continue;
            }
            depth += ch == '(' || ch == '<' ? 1 : ch == ')' || ch == '>' ? -1 : 0;
            current.append(ch);
        }
        return parts;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }
}
