package io.gpuaas.metrics.kafka;

import io.gpuaas.events.tenant.TenantUtilization;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.metrics.StartOrder;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.TenantUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code tenant-rollups}: publishes one TenantUtilization per tenant and window on
 * {@code gpuaas.tenant-utilization}, keyed by tenant. Windows are aligned to the wall clock (whole minutes by default)
 * so rollups of different replicas or restarts line up; a window holds what the samples consumed during it charged.
 * Publishing is a {@link LeaderDuty}: only the replica holding the gateway's Lease publishes, from {@link #lead()}
 * (its first window starts there; what the projections charged before is dropped, the previous leader published
 * it) to {@link #stepDown()} (the partial window is published). A window that cannot be sent is logged and lost
 * (the next one is not affected), so the component is {@code RUNNING} from start to stop, leading or not.
 */
public final class RollupPublisher implements ServiceComponent, LeaderDuty, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RollupPublisher.class);

    private final TenantUsage usage;
    private final BookedUnits bookings;
    private final Producer<String, TenantUtilizationEvent> producer;
    private final String topic;
    private final Duration window;
    private final Clock clock;
    private final LeaderTimer timer;
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
        this.timer = new LeaderTimer(
                "tenant-rollups",
                "every " + window + " to " + topic,
                "standing by: another replica publishes to " + topic);
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
        return timer.health();
    }

    @Override
    public void start() {
        timer.start();
    }

    /** Won the gateway's Lease: a window starts now, the next ones at each boundary of the wall clock. */
    @Override
    public synchronized void lead() {
        Instant now = clock.instant();
        long millis = window.toMillis();
        long untilBoundary = millis - Math.floorMod(now.toEpochMilli(), millis);
        boolean leads = timer.lead(
                (executor, task) -> executor.scheduleAtFixedRate(task, untilBoundary, millis, TimeUnit.MILLISECONDS),
                this::publishWindow);
        if (leads) {
            usage.discardWindow();
            windowStart = now;
        }
    }

    /** Lost the Lease (or stopping): publishes the partial window so its GPU-seconds are not lost. */
    @Override
    public void stepDown() {
        // A window being sent right now finishes first: the partial one must start where it ended.
        if (timer.stepDown()) {
            publishSafely();
            producer.flush();
        }
    }

    @Override
    public void stop(Duration grace) {
        if (timer.markStopped()) {
            stepDown();
            timer.shutdown();
            producer.close(grace);
        }
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

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
