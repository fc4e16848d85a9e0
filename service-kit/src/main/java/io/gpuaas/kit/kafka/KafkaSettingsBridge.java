package io.gpuaas.kit.kafka;

import io.gpuaas.kit.config.KafkaSettings;
import io.micronaut.configuration.kafka.config.KafkaDefaultConfiguration;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * {@code gpuaas.kafka.*} stays the one place a service is told how to reach Kafka: when micronaut-kafka builds its
 * root configuration ({@code kafka.*}, which every producer, consumer and admin configuration of it copies), the
 * bootstrap servers and {@code gpuaas.kafka.properties.*} (SASL, TLS...) are written into it, over anything set under
 * {@code kafka.*} for the same keys. micronaut-kafka's own switches ({@code kafka.health.*}) are taken out, since
 * Kafka clients would warn about them as unknown configs. Values are never logged.
 */
@Singleton
final class KafkaSettingsBridge implements BeanCreatedEventListener<KafkaDefaultConfiguration> {

    private final KafkaSettings settings;

    KafkaSettingsBridge(KafkaSettings settings) {
        this.settings = settings;
    }

    @Override
    public KafkaDefaultConfiguration onCreated(BeanCreatedEvent<KafkaDefaultConfiguration> event) {
        Properties config = event.getBean().getConfig();
        config.keySet().removeIf(key -> String.valueOf(key).startsWith("health"));
        config.putAll(settings.properties());
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        return event.getBean();
    }
}
