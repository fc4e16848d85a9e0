package io.gpuaas.bench.suite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything one suite run measured, by key ({@code booking.fixed_p99_ms}, {@code scale.10000g.1000t.heap_mib.
 * metrics-gateway}, …), plus short notes and the problems met (a bench that failed or printed nothing readable).
 */
final class Results {

    private final Map<String, List<Double>> values = new LinkedHashMap<>();
    private final Map<String, String> basis = new LinkedHashMap<>();
    private final Map<String, Figure> summarised = new LinkedHashMap<>();
    private final Map<String, String> notes = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();

    /** One more measurement of {@code key} (a run or a round); the figure's spread is over all of them. */
    void add(String key, double value, String basisName) {
        values.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        basis.put(key, basisName);
    }

    /** A figure a bench summarised itself (median/min/max over its rounds). */
    void put(String key, Figure figure) {
        Figure before = summarised.get(key);
        summarised.put(key, before == null ? figure : before.merge(figure));
    }

    void note(String key, String text) {
        notes.put(key, text);
    }

    void problem(String text) {
        problems.add(text);
    }

    Optional<Figure> get(String key) {
        if (summarised.containsKey(key)) {
            return Optional.of(summarised.get(key));
        }
        List<Double> v = values.get(key);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(Figure.of(v, basis.get(key)));
    }

    Optional<String> noteOf(String key) {
        return Optional.ofNullable(notes.get(key));
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    /** Every key measured, in the order first seen. */
    List<String> keys() {
        List<String> keys = new ArrayList<>(values.keySet());
        summarised.keySet().stream().filter(k -> !keys.contains(k)).forEach(keys::add);
        return keys;
    }

    boolean isEmpty() {
        return values.isEmpty() && summarised.isEmpty();
    }
}
