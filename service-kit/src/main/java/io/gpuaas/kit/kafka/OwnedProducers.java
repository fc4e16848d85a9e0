package io.gpuaas.kit.kafka;

import io.micronaut.configuration.kafka.ProducerRegistry;
import io.micronaut.core.type.Argument;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer registry of a {@link KafkaClients} built outside an application context (test harnesses, benchmarks):
 * what micronaut-kafka's registry does in a service, on the same settings ({@link ProducerSettings#layer}, without
 * operator keys, as there is no configuration) and serializers ({@link TopicSerdes}). One producer per client id and
 * types; all closed by {@link #close()}.
 */
final class OwnedProducers implements ProducerRegistry, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OwnedProducers.class);

    private record Key(String clientId, Class<?> keyType, Class<?> valueType) {}

    private final Supplier<Map<String, Object>> connection;
    private final ProducerTuning tuning;
    private final TopicSerdes serdes;
    private final Map<Key, Producer<?, ?>> producers = new ConcurrentHashMap<>();

    OwnedProducers(Supplier<Map<String, Object>> connection, ProducerTuning tuning, TopicSerdes serdes) {
        this.connection = connection;
        this.tuning = tuning;
        this.serdes = serdes;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> Producer<K, V> getProducer(String id, Argument<K> keyType, Argument<V> valueType) {
        return (Producer<K, V>) producers.computeIfAbsent(new Key(id, keyType.getType(), valueType.getType()), key -> {
            Map<String, Object> base = new HashMap<>(connection.get());
            base.put(ProducerConfig.CLIENT_ID_CONFIG, id);
            return new BoundedCloseProducer<>(
                    ProducerSettings.layer(base, tuning.settings(id), Map.of()),
                    serdes.serializer(keyType),
                    serdes.serializer(valueType));
        });
    }

    @Override
    public void close() {
        producers.values().forEach(producer -> {
            try {
                producer.close();
            } catch (RuntimeException e) {
                LOG.warn("a producer did not close cleanly: {}", e.toString());
            }
        });
        producers.clear();
    }
}
