package io.gpuaas.metrics.kafka;

import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life cycle shared by the gateway's publishing leader duties (rollups, daily ledger): one timer thread, a task
 * scheduled while this replica leads, cancelled when it steps down, and a health that is RUNNING from start to
 * stop, leading or not (a publish that fails is logged and retried by the next run, never a reason to leave
 * traffic). Each publisher keeps only what it publishes.
 */
final class LeaderTimer {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderTimer.class);
    private static final Duration IN_FLIGHT_WAIT = Duration.ofSeconds(10);

    private final String leading;
    private final String standingBy;
    private final ScheduledExecutorService timer;
    private ScheduledFuture<?> schedule;
    private volatile State state = State.STARTING;

    /**
     * @param name       the timer thread's name (the component's)
     * @param leading    the health detail while leading
     * @param standingBy the health detail otherwise
     */
    LeaderTimer(String name, String leading, String standingBy) {
        this.leading = leading;
        this.standingBy = standingBy;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name(name).daemon().factory());
    }

    synchronized ComponentHealth health() {
        return new ComponentHealth(state, true, schedule != null ? leading : standingBy, 0);
    }

    synchronized void start() {
        if (state == State.STARTING) {
            state = State.RUNNING;
        }
    }

    /**
     * Starts leading: {@code schedule} puts the task on the timer. False when stopped or already leading (then
     * nothing is scheduled).
     */
    synchronized boolean lead(
            BiFunction<ScheduledExecutorService, Runnable, ScheduledFuture<?>> schedule, Runnable task) {
        if (state == State.STOPPED || this.schedule != null) {
            return false;
        }
        this.schedule = schedule.apply(timer, () -> runLogged(task));
        return true;
    }

    /** Stops leading; a run in progress finishes first. False when this replica was not leading. */
    boolean stepDown() {
        ScheduledFuture<?> current;
        synchronized (this) {
            current = schedule;
            schedule = null;
        }
        if (current == null) {
            return false;
        }
        current.cancel(false);
        try {
            timer.submit(() -> {}).get(IN_FLIGHT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | java.util.concurrent.RejectedExecutionException e) {
            LOG.warn("{} still running: {}", standingBy, e.toString());
        }
        return true;
    }

    /** Marks the component stopped; false when it already was (the caller then has nothing to do). */
    synchronized boolean markStopped() {
        if (state == State.STOPPED) {
            return false;
        }
        state = State.STOPPED;
        return true;
    }

    /** Ends the timer thread (after {@link #stepDown()}). */
    void shutdown() {
        timer.shutdownNow();
    }

    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("leader task failed, the next run tries again: {}", e.toString());
        }
    }
}
