package io.gpuaas.local.fleet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format (0.0.4) for tests: every sample line must parse, belong to a family
 * announced by HELP and TYPE before it, and carry a float value; labels keep their order.
 */
public final class PromText {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"(,|$)");

    public record Sample(String name, LinkedHashMap<String, String> labels, double value) {}

    final Map<String, String> types = new HashMap<>();
    final Map<String, String> help = new HashMap<>();
    final List<Sample> samples = new ArrayList<>();

    public static PromText parse(String text) {
        PromText parsed = new PromText();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("# HELP ")) {
                String[] parts = line.substring(7).split(" ", 2);
                parsed.help.put(parts[0], parts.length > 1 ? parts[1] : "");
            } else if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                if (parts.length != 2
                        || !List.of("gauge", "counter", "untyped", "histogram", "summary")
                                .contains(parts[1])) {
                    throw new IllegalArgumentException("bad TYPE line: " + line);
                }
                parsed.types.put(parts[0], parts[1]);
            } else if (line.startsWith("#")) {
                continue;
            } else {
                parsed.samples.add(parsed.sample(line));
            }
        }
        return parsed;
    }

    private Sample sample(String line) {
        Matcher matcher = SAMPLE.matcher(line);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a sample line: " + line);
        }
        String name = matcher.group(1);
        if (!types.containsKey(name) || !help.containsKey(name)) {
            throw new IllegalArgumentException("sample before its HELP/TYPE: " + line);
        }
        LinkedHashMap<String, String> labels = new LinkedHashMap<>();
        String body = matcher.group(3) == null ? "" : matcher.group(3);
        Matcher label = LABEL.matcher(body);
        int end = 0;
        while (label.find() && label.start() == end) {
            labels.put(label.group(1), label.group(2));
            end = label.end();
        }
        if (end != body.length()) {
            throw new IllegalArgumentException("bad labels in: " + line);
        }
        return new Sample(name, labels, Double.parseDouble(matcher.group(4)));
    }

    public List<Sample> named(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }
}
