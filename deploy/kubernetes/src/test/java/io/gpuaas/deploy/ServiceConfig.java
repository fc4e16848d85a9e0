package io.gpuaas.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The configuration a rendered service Deployment runs with, resolved the way Micronaut does for the files and
 * environment the manifests give it: {@code gpuaas-common} application.yml, overridden by {@code <service>-config}
 * application.yml, overridden by container environment variables ({@code GPUAAS_KAFKA_BOOTSTRAP_SERVERS} for
 * {@code gpuaas.kafka.bootstrap-servers}). The service's classpath defaults are not included.
 */
final class ServiceConfig {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Map<String, String> properties;
    private final Map<String, String> env;

    private ServiceConfig(Map<String, String> properties, Map<String, String> env) {
        this.properties = properties;
        this.env = env;
    }

    static ServiceConfig of(Rendering rendering, String service) {
        Map<String, Object> deployment = rendering.ofKind("Deployment").stream()
                .filter(d -> service.equals(Rendering.name(d)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Deployment " + service + " in " + rendering.target()));
        Map<String, Object> container =
                Yaml.list(deployment, "spec", "template", "spec", "containers").getFirst();
        Map<String, String> env = new TreeMap<>();
        Yaml.list(container, "env")
                .forEach(e -> env.put(String.valueOf(e.get("name")), String.valueOf(e.get("value"))));
        Map<String, String> properties = new TreeMap<>();
        for (String configMap : List.of("gpuaas-common", service + "-config")) {
            properties.putAll(flatten(file(rendering, configMap, "application.yml")));
        }
        return new ServiceConfig(properties, env);
    }

    /** The property's value, or empty when neither the files nor the environment set it. */
    Optional<String> get(String property) {
        String fromEnv = env.get(property.toUpperCase(Locale.ROOT).replaceAll("[.-]", "_"));
        return Optional.ofNullable(fromEnv != null ? fromEnv : properties.get(property));
    }

    Map<String, String> properties() {
        return properties;
    }

    Map<String, String> env() {
        return env;
    }

    /** The content of key {@code key} of the generated ConfigMap {@code name} (its name carries a hash suffix). */
    static String file(Rendering rendering, String name, String key) {
        return rendering.ofKind("ConfigMap").stream()
                .filter(cm ->
                        Rendering.name(cm).equals(name) || Rendering.name(cm).matches(name + "-[a-z0-9]{10}"))
                .map(cm -> Yaml.string(cm, "data", key))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ConfigMap " + name + " in " + rendering.target()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> flatten(String yaml) {
        try {
            Map<String, String> flat = new TreeMap<>();
            flatten("", YAML.readValue(yaml, Map.class), flat);
            return flat;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Map<String, Object> map, Map<String, String> into) {
        map.forEach((k, v) -> {
            String key = prefix.isEmpty() ? k : prefix + "." + k;
            if (v instanceof Map<?, ?> m) {
                flatten(key, (Map<String, Object>) m, into);
            } else {
                into.put(key, String.valueOf(v));
            }
        });
    }
}
