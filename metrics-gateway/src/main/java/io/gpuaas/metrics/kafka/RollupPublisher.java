package io.gpuaas.metrics.kafka;

import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaderSchedule.Periodic;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.TenantUsage;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code tenant-rollups}: publishes one TenantUtilization per tenant and window on
 * {@code gpuaas.tenant-utilization}, keyed by tenant. Windows are aligned to the wall clock (whole minutes by default)
 * so rollups of different replicas or restarts line up; a window holds what the samples consumed during it charged.
 * Publishing is a leader duty ({@link #schedule}): only the replica holding the gateway's Lease publishes, from its
 * lead (its first window starts there) to its step-down (the partial window is published). A window that cannot be
 * sent is logged and lost (the next one is not affected), so the component is {@code RUNNING} from start to stop.
 */
public final class RollupPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(RollupPublisher.class);
    static final String NAME = "tenant-rollups";

    private final TenantUsage usage;
    private final BookedUnits bookings;
    private final Producer<String, TenantUtilizationEvent> producer;
    private final String topic;
    private final Duration window;
    private final Clock clock;
    private Instant windowStart;

    public RollupPublisher(
            TenantUsage usage,
            BookedUnits bookings,
            Producer<String, TenantUtilizationEvent> producer,
            String topic,
            Duration window,
            Clock clock) {
        this.usage = usage;
        this.bookings = bookings;
        this.producer = producer;
        this.topic = topic;
        this.window = window;
        this.clock = clock;
    }

    /**
     * The component {@code tenant-rollups} and leader duty: on leading a window starts now, the next ones at each
     * boundary of the wall clock; on stepping down (after a window being sent has gone) the partial window is sent.
     */
    public LeaderSchedule schedule(PrometheusRegistry registry) {
        return PublisherSchedule.of(NAME, topic, "every " + window + " to " + topic, producer, registry)
                .onLead(this::startWindow)
                .task("publish", Periodic.fixedRate(this::untilBoundary, window, this::publishWindow))
                .onStepDown(() -> {
                    publishSafely();
                    producer.flush();
                })
                .build();
    }

    /** Won the gateway's Lease: what the projections charged before is dropped, the previous leader published it. */
    private synchronized void startWindow() {
        usage.discardWindow();
        windowStart = clock.instant();
    }

    private Duration untilBoundary() {
        long millis = window.toMillis();
        return Duration.ofMillis(millis - Math.floorMod(clock.instant().toEpochMilli(), millis));
    }

    private void publishSafely() {
        try {
            publishWindow();
        } catch (RuntimeException e) {
            LOG.warn("tenant rollup not published: {}", e.toString());
        }
    }

    /** Closes the current window and sends its rollups; returns them (for tests and logs). */
    public synchronized List<TenantUtilization> publishWindow() {
        Instant end = clock.instant();
        Instant start = windowStart;
        windowStart = end;
        List<TenantUtilization> rollups = usage.rollup(start, end, bookings.activeAt(end));
        rollups.forEach(r -> producer.send(new ProducerRecord<>(topic, r.tenant(), r)));
        return rollups;
    }
}
