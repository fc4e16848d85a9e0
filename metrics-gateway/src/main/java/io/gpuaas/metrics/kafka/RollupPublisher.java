package io.gpuaas.metrics.kafka;

import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.TenantUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one TenantUtilization per tenant and window on {@code gpuaas.tenant-utilization}, keyed by tenant.
 * Windows are aligned to the wall clock (whole minutes by default) so rollups of different replicas or restarts
 * line up; a window holds what the samples consumed during it charged.
 */
public final class RollupPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RollupPublisher.class);

    private final TenantUsage usage;
    private final BookedUnits bookings;
    private final Producer<String, TenantUtilizationEvent> producer;
    private final String topic;
    private final Duration window;
    private final Clock clock;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("tenant-rollups").daemon().factory());
    private Instant windowStart;

    public RollupPublisher(TenantUsage usage, BookedUnits bookings, Producer<String, TenantUtilizationEvent> producer,
                           String topic, Duration window, Clock clock) {
        this.usage = usage;
        this.bookings = bookings;
        this.producer = producer;
        this.topic = topic;
        this.window = window;
        this.clock = clock;
    }

    public void start() {
        Instant now = clock.instant();
        windowStart = now;
        long millis = window.toMillis();
        long untilBoundary = millis - Math.floorMod(now.toEpochMilli(), millis);
        timer.scheduleAtFixedRate(this::publishSafely, untilBoundary, millis, TimeUnit.MILLISECONDS);
    }

    private void publishSafely() {
        try {
            publishWindow();
        } catch (RuntimeException e) {
            LOG.warn("tenant rollup not published: {}", e.toString());
        }
    }

    /** Closes the current window and sends its rollups; returns them (for tests and logs). */
    public List<TenantUtilization> publishWindow() {
        Instant end = clock.instant();
        Instant start = windowStart;
        windowStart = end;
        List<TenantUtilization> rollups = usage.rollup(start, end, bookings.activeAt(end));
        rollups.forEach(r -> producer.send(new ProducerRecord<>(topic, r.tenant(), r)));
        return rollups;
    }

    /** Publishes the partial window on shutdown so its GPU-seconds are not lost. */
    @Override
    public void close() {
        timer.shutdownNow();
        publishSafely();
        producer.close(Duration.ofSeconds(10));
    }
}
