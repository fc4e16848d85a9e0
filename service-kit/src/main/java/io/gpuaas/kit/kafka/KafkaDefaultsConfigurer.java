package io.gpuaas.kit.kafka;

import io.micronaut.context.ApplicationContextBuilder;
import io.micronaut.context.ApplicationContextConfigurer;
import io.micronaut.context.env.PropertySource;
import java.util.Map;

/**
 * micronaut-kafka's defaults for every gpuaas application context, below every other property source (a service's
 * {@code application.yml}, system properties and the environment all win): its health indicator off, as readiness
 * has one Kafka check, {@code health.KafkaReadinessIndicator}. The key also gives micronaut-kafka the {@code kafka.*}
 * configuration its producer registry needs, which otherwise exists only if some {@code kafka.*} key is set.
 * Registered through {@code META-INF/services}, so test contexts get it as the services do.
 */
public final class KafkaDefaultsConfigurer implements ApplicationContextConfigurer {

    static final String NAME = "gpuaas-kafka-defaults";

    @Override
    public void configure(ApplicationContextBuilder builder) {
        builder.propertySources(PropertySource.of(NAME, Map.of("kafka.health.enabled", false), Integer.MIN_VALUE));
    }
}
