package io.gpuaas.kit.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.format.MapFormat;
import io.micronaut.core.naming.conventions.StringConvention;
import jakarta.validation.constraints.NotBlank;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a service reaches Kafka.
 *
 * @param bootstrapServers {@code gpuaas.kafka.bootstrap-servers}
 * @param topicPrefix      {@code gpuaas.kafka.topic-prefix}, default {@code gpuaas.}
 * @param properties       {@code gpuaas.kafka.properties.*}: extra client properties (security, SASL...) passed
 *                         as they are to every client; their values never reach a log
 */
@ConfigurationProperties("gpuaas.kafka")
public record KafkaSettings(
        @NotBlank String bootstrapServers,
        @Bindable(defaultValue = "gpuaas.") String topicPrefix,

        @Nullable @MapFormat(transformation = MapFormat.MapTransformation.FLAT, keyFormat = StringConvention.RAW)
        Map<String, String> properties) {

    public KafkaSettings {
        topicPrefix = topicPrefix == null ? "gpuaas." : topicPrefix;
        properties = properties == null ? Map.of() : Map.copyOf(properties);
    }

    /** For logs: the settings with every extra property value masked. */
    @Override
    public String toString() {
        Map<String, String> masked = new TreeMap<>();
        properties.keySet().forEach(k -> masked.put(k, "***"));
        return "KafkaSettings[bootstrapServers=" + bootstrapServers + ", topicPrefix=" + topicPrefix + ", properties="
                + masked + "]";
    }
}
