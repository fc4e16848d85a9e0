package io.gpuaas.kit.kafka;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The settings the code asks for each producer, by client id, between the kit's defaults and the operator's
 * {@code kafka.producers.<client-id>.*} ({@link ProducerSettings#layer}). micronaut-kafka's registry makes one
 * producer per client id and hands it to every caller, so an id has one set of settings: asking for the same id with
 * other settings is a bug, refused at once rather than answered with a producer tuned for someone else.
 */
@Singleton
public final class ProducerTuning {

    private final Map<String, Map<String, Object>> byClientId = new ConcurrentHashMap<>();

    /** Records {@code settings} for {@code clientId}; a second call must bring the same settings. */
    public void register(String clientId, Map<String, ?> settings) {
        Map<String, Object> copy = Map.copyOf(settings);
        Map<String, Object> known = byClientId.putIfAbsent(clientId, copy);
        if (known != null && !known.equals(copy)) {
            throw new IllegalArgumentException("producer " + clientId + " was asked for with the settings "
                    + known.keySet() + " before, now with " + copy.keySet() + " (or other values)");
        }
    }

    /** What the code asked for {@code clientId}; empty for an id nobody registered. */
    public Map<String, Object> settings(String clientId) {
        return clientId == null ? Map.of() : byClientId.getOrDefault(clientId, Map.of());
    }
}
