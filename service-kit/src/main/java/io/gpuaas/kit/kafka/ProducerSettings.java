package io.gpuaas.kit.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How a gpuaas producer's configuration is put together, lowest first: the connection ({@code gpuaas.kafka.*}:
 * bootstrap servers and client properties such as SASL), the kit's {@link #DEFAULTS}, the settings the code asks
 * for that producer (a person waits for a booking command: no linger), then what an operator configured under
 * {@code kafka.producers.<client-id>.*}. The same function serves producers made by micronaut-kafka's registry
 * ({@link LayeredProducerFactory}) and those made outside an application context ({@link OwnedProducers}).
 */
public final class ProducerSettings {

    /**
     * Idempotent {@code acks=all} (no duplicates on retry, ordering kept per partition), and snappy: our producers
     * send a few records per batch (one booking command, a scrape's 8 GPUs over 24 partitions), and Kafka's lz4
     * stream allocates two 64 KiB block buffers per batch (~21 µs and 132 KiB for a 1-record batch) where snappy
     * reuses its buffers and compresses these records as well (README, "Producer compression").
     */
    public static final Map<String, Object> DEFAULTS = Map.of(
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            5,
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.COMPRESSION_TYPE_CONFIG,
            "snappy");

    private ProducerSettings() {}

    /**
     * @param connection bootstrap servers, client properties and the client id
     * @param code       what the code asks for this producer (may be empty)
     * @param operator   {@code kafka.producers.<client-id>.*} (may be empty)
     */
    public static Map<String, Object> layer(Map<?, ?> connection, Map<String, ?> code, Map<String, ?> operator) {
        Map<String, Object> config = new HashMap<>();
        connection.forEach((k, v) -> config.put(String.valueOf(k), v));
        config.putAll(DEFAULTS);
        config.putAll(code);
        config.putAll(operator);
        return config;
    }
}
