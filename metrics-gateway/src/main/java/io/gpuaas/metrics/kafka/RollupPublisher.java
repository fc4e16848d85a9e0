package io.gpuaas.metrics.kafka;

import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.metrics.StartOrder;
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
 * Component {@code tenant-rollups}: publishes one TenantUtilization per tenant and window on
 * {@code gpuaas.tenant-utilization}, keyed by tenant. Windows are aligned to the wall clock (whole minutes by default)
 * so rollups of different replicas or restarts line up; a window holds what the samples consumed during it charged.
 * A window that cannot be sent is logged and lost (the next one is not affected), so the component is
 * {@code RUNNING} from start to stop.
 */
public final class RollupPublisher implements ServiceComponent, AutoCloseable {

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
    private volatile State state = State.STARTING;

    public RollupPublisher(TenantUsage usage, BookedUnits bookings, Producer<String, TenantUtilizationEvent> producer,
                           String topic, Duration window, Clock clock) {
        this.usage = usage;
        this.bookings = bookings;
        this.producer = producer;
        this.topic = topic;
        this.window = window;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "tenant-rollups";
    }

    @Override
    public int startOrder() {
        return StartOrder.ROLLUPS;
    }

    @Override
    public ComponentHealth health() {
        return new ComponentHealth(state, true, "every " + window + " to " + topic, 0);
    }

    @Override
    public synchronized void start() {
        if (state != State.STARTING) {
            return;
        }
        Instant now = clock.instant();
        windowStart = now;
        long millis = window.toMillis();
        long untilBoundary = millis - Math.floorMod(now.toEpochMilli(), millis);
        timer.scheduleAtFixedRate(this::publishSafely, untilBoundary, millis, TimeUnit.MILLISECONDS);
        state = State.RUNNING;
    }

    /** Publishes the partial window on shutdown so its GPU-seconds are not lost. */
    @Override
    public synchronized void stop(Duration grace) {
        if (state == State.STOPPED) {
            return;
        }
        boolean wasRunning = state == State.RUNNING;
        state = State.STOPPED;
        timer.shutdownNow();
        try {
            // A window being sent right now finishes first: the partial one must start where it ended.
            timer.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (wasRunning) {
            publishSafely();
        }
        producer.close(grace);
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

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
