package io.gpuaas.reclaim.stream;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import jakarta.inject.Singleton;
import org.apache.kafka.streams.KafkaStreams;
import org.reactivestreams.Publisher;

/** Liveness: DOWN only once the stream has died (ERROR), so the pod is restarted; anything else is alive. */
@Singleton
@Liveness
public class StreamsLivenessIndicator implements HealthIndicator {

    private final ReclaimStreams streams;

    public StreamsLivenessIndicator(ReclaimStreams streams) {
        this.streams = streams;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        KafkaStreams.State state = streams.state();
        HealthStatus status = state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR
                ? HealthStatus.DOWN
                : HealthStatus.UP;
        return Publishers.just(HealthResult.builder("reclaimStreams", status)
                .details(streams.details())
                .build());
    }
}
