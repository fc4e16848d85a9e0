package io.gpuaas.reclaim.stream;

import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import org.apache.kafka.streams.KafkaStreams;
import org.reactivestreams.Publisher;

/**
 * Readiness: the stream is RUNNING or REBALANCING; one that is still waiting for the informers (or restoring windows
 * from the changelog) is alive but not ready. Liveness is {@link StreamsLivenessIndicator}.
 */
@Singleton
@Readiness
public class StreamsHealthIndicator implements HealthIndicator {

    private final ReclaimStreams streams;

    public StreamsHealthIndicator(ReclaimStreams streams) {
        this.streams = streams;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        KafkaStreams.State state = streams.state();
        HealthStatus status =
                switch (state) {
                    case RUNNING, REBALANCING -> HealthStatus.UP;
                    case CREATED -> new HealthStatus("STARTING", "waiting for informers", false, null);
                    case ERROR, PENDING_ERROR, PENDING_SHUTDOWN, NOT_RUNNING -> HealthStatus.DOWN;
                };
        return Publishers.just(HealthResult.builder("reclaimStreams", status)
                .details(streams.details())
                .build());
    }
}
