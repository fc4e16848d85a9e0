package io.gpuaas.local.services;

import java.util.Optional;
import java.util.Set;

/**
 * One configuration override handed to a service JVM as a system property, e.g. a short idle window for a test.
 * Written {@code [service:]key=value}: without a service it goes to every service. Micronaut reads system
 * properties above {@code application.yml}, so an override wins over the service's own defaults.
 *
 * @param service the service it is for ({@link ServiceSpec#name()}), or empty for every service
 * @param key     the configuration property, e.g. {@code gpuaas.reclaimer.policy.window}
 * @param value   its value
 */
public record ServiceProperty(Optional<String> service, String key, String value) {

    public ServiceProperty {
        if (key == null || key.isBlank() || key.contains(" ")) {
            throw new IllegalArgumentException("a service property needs a key without spaces, got '" + key + "'");
        }
        if (value == null) {
            throw new IllegalArgumentException("service property " + key + " needs a value");
        }
    }

    /** The override for every service. */
    public static ServiceProperty all(String key, String value) {
        return new ServiceProperty(Optional.empty(), key, value);
    }

    /** The override for one service. */
    public static ServiceProperty of(String service, String key, String value) {
        return new ServiceProperty(Optional.of(service), key, value);
    }

    /**
     * Parses {@code [service:]key=value}; the value may contain {@code =} and {@code :} (URLs, durations).
     *
     * @param known the service names a prefix may name
     */
    public static ServiceProperty parse(String text, Set<String> known) {
        int equals = text.indexOf('=');
        if (equals <= 0) {
            throw new IllegalArgumentException("--service-property needs [service:]key=value, got '" + text + "'");
        }
        String left = text.substring(0, equals);
        String value = text.substring(equals + 1);
        int colon = left.indexOf(':');
        if (colon < 0) {
            return all(left.trim(), value);
        }
        String service = left.substring(0, colon).trim();
        if (!known.contains(service)) {
            throw new IllegalArgumentException("--service-property: unknown service " + service + "; known: " + known);
        }
        return of(service, left.substring(colon + 1).trim(), value);
    }

    /** Whether this override goes to {@code serviceName}. */
    public boolean appliesTo(String serviceName) {
        return service.map(serviceName::equals).orElse(true);
    }
}
