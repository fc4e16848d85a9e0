package io.gpuaas.system.e2e;

import java.time.Duration;
import java.util.List;

/**
 * The short windows that make the scenario fit in a few minutes, each handed to a service as its real configuration
 * property (see each service's {@code @ConfigurationProperties} and {@code application.yml}). The defaults are
 * minutes long (15 min idle window, 10 min warm-up, 15 min booking alignment, 10 min drain, 1 min rollups).
 */
final class ScenarioTiming {

    /** How far ahead the booking starts: time to show it in the calendar before it becomes quota. */
    static final Duration BOOKING_LEAD = Duration.ofSeconds(20);
    /** Booked length; the scenario shortens it once the workload is resumed, so the run need not wait for it. */
    static final Duration BOOKING_LENGTH = Duration.ofMinutes(3);
    /** Booking alignment ({@code gpuaas.booking.alignment}, default PT15M): whole seconds. */
    static final Duration ALIGNMENT = Duration.ofSeconds(1);
    /** Idle window ({@code gpuaas.reclaimer.policy.window}, default 15m). */
    static final Duration IDLE_WINDOW = Duration.ofSeconds(20);
    /** Warm-up after a pod starts or the workload resumes ({@code ...policy.warm-up}, default 10m). */
    static final Duration WARM_UP = Duration.ofSeconds(5);
    /** dcgm-exporter scrape interval ({@code gpuaas.metrics-gateway.scrape.interval}, default 5s). */
    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(1);
    /** Drain timeout of an ended tenant's ClusterQueue ({@code gpuaas.quota.drain-timeout}, default 10m). */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);
    /** Per-tenant rollups on tenant-utilization ({@code ...usage.rollup-window}, default 1m). */
    static final Duration ROLLUP_WINDOW = Duration.ofSeconds(10);

    private ScenarioTiming() {}

    /** The overrides as {@code deploy/local/up --service-property} arguments. */
    static List<String> serviceProperties() {
        return List.of(
                "booking-service:gpuaas.booking.alignment=" + ALIGNMENT,
                "quota-projector:gpuaas.quota.drain-timeout=" + seconds(DRAIN_TIMEOUT),
                "idle-reclaimer:gpuaas.reclaimer.policy.window=" + seconds(IDLE_WINDOW),
                "idle-reclaimer:gpuaas.reclaimer.policy.warm-up=" + seconds(WARM_UP),
                // The expected spacing of samples must match the scrape interval, or coverage is never reached.
                "idle-reclaimer:gpuaas.reclaimer.policy.sample-interval=" + seconds(SCRAPE_INTERVAL),
                // 1 s samples on two busy cores sometimes share a slot; 75% still refuses a real gap.
                "idle-reclaimer:gpuaas.reclaimer.policy.min-coverage=0.75",
                "metrics-gateway:gpuaas.metrics-gateway.scrape.interval=" + seconds(SCRAPE_INTERVAL),
                "metrics-gateway:gpuaas.metrics-gateway.usage.rollup-window=" + seconds(ROLLUP_WINDOW),
                // The fleet is configured as fixed targets; no dcgm-exporter pods exist to discover.
                "metrics-gateway:gpuaas.metrics-gateway.scrape.discovery=false");
    }

    private static String seconds(Duration duration) {
        return duration.toSeconds() + "s";
    }
}
