package io.gpuaas.booking.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.kit.kafka.KafkaClients;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

/**
 * The service's one dead-letter path, shared by the decision engine's exception handlers and the booking feed, so
 * every dead letter booking-service writes carries the same {@code gpuaas_dlq_*} headers as every other service's
 * and is counted once, in {@code gpuaas_dead_letter_records_total} on the service's registry.
 */
@Factory
public class DeadLetterFactory {

    /** Written to {@code gpuaas_dlq_group} by every booking-service instance, whichever path gave up. */
    public static final String GROUP = "booking-service";

    @Singleton
    DeadLetterPublisher deadLetterPublisher(KafkaClients clients, PrometheusRegistry registry) {
        return clients.deadLetterPublisher(GROUP, registry);
    }
}
