package io.gpuaas.booking.stream;

import io.gpuaas.booking.kafka.BookingFeed;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.reactivestreams.Publisher;

/**
 * Ready when the decision processor runs (or rebalances) and the read view has loaded every booking that existed
 * at start; before that, answers about availability or bookings could be stale or missing.
 */
@Singleton
@Readiness
public class DecisionEngineReadiness implements HealthIndicator {

    private final DecisionEngine engine;
    private final BookingFeed feed;

    public DecisionEngineReadiness(DecisionEngine engine, BookingFeed feed) {
        this.engine = engine;
        this.feed = feed;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        KafkaStreams.State state = engine.state();
        boolean running = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
        boolean up = running && feed.isCaughtUp();
        return Publishers.just(HealthResult.builder("booking-decider", up ? HealthStatus.UP : HealthStatus.DOWN)
                .details(Map.of("streams", state.name(), "viewLoaded", feed.isCaughtUp())).build());
    }
}
