package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Short tasks a service starts on its own schedule (one webhook attempt, a retry after a backoff), each on its own
 * virtual thread, and a timer that starts them later. The service gets it injected and owns no executor: the kit
 * starts it before the components that use it and stops it after them, finishing running tasks within the grace.
 * A task that throws is logged; it never kills a thread the others need.
 */
public final class TaskPool implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(TaskPool.class);

    private final String name;
    private final int startOrder;
    private final ExecutorService tasks = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timer;
    private volatile State state = State.STARTING;

    /**
     * @param name       kebab-case component name; the timer thread is {@code <name>-timer}
     * @param startOrder before the components that submit to it (it stops after them)
     */
    public TaskPool(String name, int startOrder) {
        this.name = name;
        this.startOrder = startOrder;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name(name + "-timer").daemon(true).factory());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public void start() {
        if (state == State.STARTING) {
            state = State.RUNNING;
        }
    }

    /**
     * Runs {@code task} now on a virtual thread of its own.
     *
     * @throws RejectedExecutionException once the pool is stopping
     */
    public void execute(Runnable task) {
        tasks.execute(() -> guarded(task));
    }

    /**
     * Runs {@code task} on a virtual thread of its own after {@code delay}; the timer thread never runs it itself.
     *
     * @throws RejectedExecutionException once the pool is stopping
     */
    public void schedule(Runnable task, Duration delay) {
        timer.schedule(
                () -> {
                    try {
                        execute(task);
                    } catch (RejectedExecutionException e) {
                        LOG.debug("{}: a timed task was not started: stopping", name);
                    }
                },
                delay.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** Drops timed tasks not yet due, lets running ones finish within {@code grace}, then interrupts them. */
    @Override
    public void stop(Duration grace) {
        timer.shutdownNow();
        tasks.shutdown();
        try {
            if (!tasks.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                tasks.shutdownNow();
            }
        } catch (InterruptedException e) {
            tasks.shutdownNow();
            Thread.currentThread().interrupt();
        }
        state = State.STOPPED;
    }

    @Override
    public ComponentHealth health() {
        return new ComponentHealth(state, true, state == State.STOPPED ? "stopped" : "accepting tasks", 0);
    }

    private void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("{}: a task failed", name, e);
        }
    }
}
