package io.gpuaas.kit.kafka;

import io.micronaut.configuration.kafka.DefaultProducerFactory;
import io.micronaut.configuration.kafka.ProducerFactory;
import io.micronaut.configuration.kafka.config.KafkaProducerConfiguration;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.env.Environment;
import io.micronaut.core.naming.conventions.StringConvention;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Where micronaut-kafka's registry makes each producer: its configuration ({@code kafka.*}, which carries
 * {@code gpuaas.kafka.*} through {@link KafkaSettingsBridge}, and {@code kafka.producers.<client-id>.*}) gets the
 * kit's defaults and the code's settings for that client id in between, so an operator's per-producer key still
 * wins ({@link ProducerSettings#layer}).
 */
@Singleton
@Replaces(DefaultProducerFactory.class)
final class LayeredProducerFactory implements ProducerFactory {

    private final Environment environment;
    private final ProducerTuning tuning;

    LayeredProducerFactory(Environment environment, ProducerTuning tuning) {
        this.environment = environment;
        this.tuning = tuning;
    }

    @Override
    public <K, V> Producer<K, V> createProducer(Properties config, Serializer<K> keys, Serializer<V> values) {
        String clientId = config.getProperty(ProducerConfig.CLIENT_ID_CONFIG);
        return new BoundedCloseProducer<>(
                ProducerSettings.layer(config, tuning.settings(clientId), operator(clientId)), keys, values);
    }

    /** {@code kafka.producers.<client-id>.*}, with Kafka's own dotted names kept as they are. */
    private Map<String, Object> operator(String clientId) {
        if (clientId == null) {
            return Map.of();
        }
        return environment.getProperties(KafkaProducerConfiguration.PREFIX + "." + clientId, StringConvention.RAW);
    }
}
