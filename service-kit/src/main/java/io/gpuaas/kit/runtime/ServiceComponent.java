package io.gpuaas.kit.runtime;

import java.time.Duration;

/**
 * A long-running part of a service (a topic replica, a reconcile loop), started and stopped by
 * {@link ServiceLifecycle}. Its {@link #health()} feeds {@code /health/readiness} and {@code /health/liveness}, so a
 * background loop that stops following its inputs takes the service out of traffic instead of failing silently.
 */
public interface ServiceComponent {

    /** Stable, kebab-case, e.g. {@code booking-feed}: names the component in health details, logs and metrics. */
    String name();

    /** Lower starts first and stops last. */
    default int startOrder() {
        return 0;
    }

    /** Non-blocking: spawns the component's own thread(s) and returns. */
    void start();

    /** Graceful: finishes in-flight work within {@code grace}, then interrupts what is left. */
    void stop(Duration grace);

    /** The component's state now; cheap, called by every health probe. */
    ComponentHealth health();
}
