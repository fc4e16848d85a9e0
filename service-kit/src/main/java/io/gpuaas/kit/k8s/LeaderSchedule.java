package io.gpuaas.kit.k8s;

import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic work that runs only while this replica leads: a {@link LeaderDuty} whose tasks run from {@link #lead()} to
 * {@link #stepDown()} on kit-owned threads (one timer thread that only dispatches, and a virtual thread per run, so a
 * slow task delays nobody but itself), and a {@link ServiceComponent} that is {@code RUNNING} from start to stop,
 * leading or not. See service-kit's DESIGN.md, "LeaderSchedule".
 *
 * <ul>
 *   <li>A task never overlaps itself: its next run is timed when the run before ends.</li>
 *   <li>A run that throws is logged and counted ({@code gpuaas_leader_task_failures_total}), named in the health
 *       detail, and the task runs again as planned: a failed publish is retried by the next one.</li>
 *   <li>{@code stepDown} cancels what is due, waits up to the step-down grace for runs in flight (then interrupts
 *       them), and only then runs the {@code onStepDown} hook: once it returns no task runs.</li>
 *   <li>Tasks may be added and removed at any time ({@link #put}, {@link #remove}); while leading a new task starts
 *       at once (after its first delay) and a removed one is interrupted.</li>
 * </ul>
 */
public final class LeaderSchedule implements ServiceComponent, LeaderDuty {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderSchedule.class);

    /** One run of a task: returns the wait before the next run, or null when the task is done for this term. */
    @FunctionalInterface
    public interface Task {
        Duration run() throws Exception;
    }

    /**
     * A task of the schedule.
     *
     * @param firstDelay   the wait before the first run of each term, asked when the term (or the task) starts
     * @param task         one run
     * @param afterFailure the wait before the next run when a run threw
     */
    public record Periodic(Supplier<Duration> firstDelay, Task task, Duration afterFailure) {
        public Periodic {
            Objects.requireNonNull(firstDelay, "firstDelay");
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(afterFailure, "afterFailure");
        }

        /** {@code run} every {@code delay} after the previous run ended, the first {@code first} after leading. */
        public static Periodic fixedDelay(Duration first, Duration delay, Runnable run) {
            positive(delay);
            return new Periodic(
                    () -> first,
                    () -> {
                        run.run();
                        return delay;
                    },
                    delay);
        }

        /**
         * {@code run} at {@code first} after leading, then every {@code period} from there (a run that overruns a
         * period skips the starts it missed rather than bursting to catch up).
         */
        public static Periodic fixedRate(Supplier<Duration> first, Duration period, Runnable run) {
            positive(period);
            long[] due = new long[1];
            return new Periodic(
                    () -> {
                        Duration delay = first.get();
                        due[0] = System.nanoTime() + delay.toNanos();
                        return delay;
                    },
                    () -> {
                        try {
                            run.run();
                        } finally {
                            long now = System.nanoTime();
                            do {
                                due[0] += period.toNanos();
                            } while (due[0] < now);
                        }
                        return Duration.ofNanos(due[0] - System.nanoTime());
                    },
                    period);
        }

        private static void positive(Duration d) {
            if (!d.isPositive()) {
                throw new IllegalArgumentException("a period must be positive, got " + d);
            }
        }
    }

    /** A task's current registration; a replaced or removed entry never schedules itself again. */
    private final class Entry {
        final String key;
        final Periodic periodic;
        ScheduledFuture<?> next;
        Thread running;
        /** Came due while a run of an earlier term still ended: runs as soon as that one has. */
        boolean due;

        Entry(String key, Periodic periodic) {
            this.key = key;
            this.periodic = periodic;
        }
    }

    private final String name;
    private final int startOrder;
    private final Supplier<String> leadingDetail;
    private final Supplier<String> standingByDetail;
    private final Runnable onLead;
    private final Runnable onStepDown;
    private final Consumer<Duration> onStop;
    private final Duration stepDownGrace;
    private final LeaderTaskMetrics metrics;
    private final ScheduledExecutorService timer;
    private final Map<String, Entry> entries = new HashMap<>();
    private State state = State.STARTING;
    private boolean leading;
    private long term;
    private long failures;
    private String lastFailure;

    private LeaderSchedule(Builder builder) {
        this.name = builder.name;
        this.startOrder = builder.startOrder;
        this.leadingDetail = builder.leadingDetail;
        this.standingByDetail = builder.standingByDetail;
        this.onLead = builder.onLead;
        this.onStepDown = builder.onStepDown;
        this.onStop = builder.onStop;
        this.stepDownGrace = builder.stepDownGrace;
        this.metrics =
                LeaderTaskMetrics.of(name, builder.registry != null ? builder.registry : new PrometheusRegistry());
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name(name + "-timer").factory());
        executor.setRemoveOnCancelPolicy(true);
        this.timer = Executors.unconfigurableScheduledExecutorService(executor);
        builder.tasks.forEach((key, periodic) -> entries.put(key, new Entry(key, periodic)));
    }

    /**
     * A schedule named {@code name} (kebab-case: the component, its threads and the {@code schedule} label). Defaults:
     * no task, no hooks, a step-down grace of 10 s, no metrics registry.
     */
    public static Builder builder(String name) {
        return new Builder(name);
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
    public synchronized void start() {
        if (state == State.STARTING) {
            state = State.RUNNING;
        }
    }

    /** Won the Lease: the {@code onLead} hook, then every task after its first delay. No-op once stopped. */
    @Override
    public void lead() {
        synchronized (this) {
            if (state == State.STOPPED || leading) {
                return;
            }
            leading = true;
            term++;
            onLead.run();
            entries.values().forEach(this::begin);
        }
        metrics.leading(true);
    }

    /**
     * Lost the Lease (or stopping): nothing new starts, runs in flight get the step-down grace to end and are then
     * interrupted, and the {@code onStepDown} hook runs after them. Returns once no task runs.
     */
    @Override
    public void stepDown() {
        synchronized (this) {
            if (!leading) {
                return;
            }
            leading = false;
            term++;
            entries.values().forEach(e -> {
                e.due = false;
                if (e.next != null) {
                    e.next.cancel(false);
                    e.next = null;
                }
            });
            awaitIdle();
        }
        metrics.leading(false);
        try {
            onStepDown.run();
        } catch (RuntimeException e) {
            LOG.warn("{}: step-down hook failed: {}", name, e.toString());
        }
    }

    /** Waits (releasing the lock) for runs in flight, up to the grace; then interrupts those left. */
    private void awaitIdle() {
        long deadline = System.nanoTime() + stepDownGrace.toNanos();
        try {
            while (anyRunning()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    entries.values().stream().filter(e -> e.running != null).forEach(e -> {
                        LOG.warn("{}: {} still running {} after step-down; interrupted", name, e.key, stepDownGrace);
                        e.running.interrupt();
                    });
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean anyRunning() {
        return entries.values().stream().anyMatch(e -> e.running != null);
    }

    /** Adds or replaces task {@code key}; while leading it starts after its first delay. */
    public synchronized void put(String key, Periodic periodic) {
        Entry old = entries.put(key, new Entry(key, periodic));
        if (old != null) {
            end(old);
        }
        if (leading) {
            begin(entries.get(key));
        }
    }

    /** Removes task {@code key}: not run again, and a run in flight is interrupted. */
    public synchronized void remove(String key) {
        Entry old = entries.remove(key);
        if (old != null) {
            end(old);
        }
    }

    private void end(Entry entry) {
        if (entry.next != null) {
            entry.next.cancel(false);
        }
        if (entry.running != null) {
            entry.running.interrupt();
        }
    }

    /** The keys of the tasks (running now or not). */
    public synchronized Set<String> tasks() {
        return Set.copyOf(entries.keySet());
    }

    /** Whether this replica leads now (between {@code lead} and {@code stepDown}). */
    public synchronized boolean leading() {
        return leading;
    }

    /** Runs that threw since start. */
    public synchronized long failures() {
        return failures;
    }

    private void begin(Entry entry) {
        Duration first;
        try {
            first = entry.periodic.firstDelay().get();
        } catch (RuntimeException e) {
            LOG.warn("{}: first delay of {} failed, running it at once: {}", name, entry.key, e.toString());
            first = Duration.ZERO;
        }
        schedule(entry, first, term);
    }

    private void schedule(Entry entry, Duration delay, long ofTerm) {
        try {
            entry.next =
                    timer.schedule(() -> dispatch(entry, ofTerm), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            entry.next = null;
        }
    }

    /** On the timer thread: hands one run to a virtual thread of its own, if the task and the term still stand. */
    private synchronized void dispatch(Entry entry, long ofTerm) {
        if (ofTerm != term || entries.get(entry.key) != entry) {
            return;
        }
        if (entry.running != null) {
            entry.due = true;
            return;
        }
        entry.next = null;
        entry.running = Thread.ofVirtual().name(name + "-" + entry.key).unstarted(() -> runOnce(entry, ofTerm));
        entry.running.start();
    }

    private void runOnce(Entry entry, long ofTerm) {
        long start = System.nanoTime();
        Duration next;
        boolean failed = false;
        try {
            next = entry.periodic.task().run();
        } catch (Exception e) {
            failed = true;
            next = entry.periodic.afterFailure();
            String what = entry.key + ": " + e;
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            synchronized (this) {
                failures++;
                lastFailure = what;
            }
            LOG.warn("{}: task {} failed, runs again in {}", name, what, next, e);
        }
        metrics.ran(System.nanoTime() - start, failed);
        synchronized (this) {
            entry.running = null;
            if (entries.get(entry.key) == entry && leading) {
                if (entry.due) {
                    entry.due = false;
                    schedule(entry, Duration.ZERO, term);
                } else if (next != null && ofTerm == term) {
                    schedule(entry, next, ofTerm);
                }
            }
            notifyAll();
        }
    }

    @Override
    public synchronized ComponentHealth health() {
        String detail = leading ? leadingDetail.get() : standingByDetail.get();
        if (failures > 0) {
            detail += "; " + failures + " runs failed, last " + lastFailure;
        }
        return new ComponentHealth(state, true, detail, 0);
    }

    /** Steps down (no task runs after that), ends the timer thread, then the {@code onStop} hook. */
    @Override
    public void stop(Duration grace) {
        synchronized (this) {
            if (state == State.STOPPED) {
                return;
            }
            state = State.STOPPED;
        }
        stepDown();
        timer.shutdownNow();
        onStop.accept(grace);
    }

    /** Options of a {@link LeaderSchedule}. */
    public static final class Builder {
        private final String name;
        private final Map<String, Periodic> tasks = new HashMap<>();
        private Supplier<String> leadingDetail = () -> "leading";
        private Supplier<String> standingByDetail = () -> "standing by: another replica leads";
        private Runnable onLead = () -> {};
        private Runnable onStepDown = () -> {};
        private Consumer<Duration> onStop = grace -> {};
        private Duration stepDownGrace = Duration.ofSeconds(10);
        private PrometheusRegistry registry;
        private int startOrder;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** A task run every term; see {@link Periodic#fixedDelay} and {@link Periodic#fixedRate}. */
        public Builder task(String key, Periodic periodic) {
            if (tasks.putIfAbsent(key, Objects.requireNonNull(periodic, "periodic")) != null) {
                throw new IllegalArgumentException(name + ": task " + key + " added twice");
            }
            return this;
        }

        /** The health detail while leading and while standing by (asked at each health probe). */
        public Builder detail(Supplier<String> leading, Supplier<String> standingBy) {
            this.leadingDetail = Objects.requireNonNull(leading, "leading");
            this.standingByDetail = Objects.requireNonNull(standingBy, "standingBy");
            return this;
        }

        /** Runs on winning the Lease, before any task of the term. */
        public Builder onLead(Runnable hook) {
            this.onLead = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /** Runs on losing it, after the last run of the term ended (publish a partial window, flush a producer). */
        public Builder onStepDown(Runnable hook) {
            this.onStepDown = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /** Runs once at stop, after the step-down (close a producer within {@code grace}). */
        public Builder onStop(Consumer<Duration> hook) {
            this.onStop = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /** How long a step-down waits for runs in flight before it interrupts them. */
        public Builder stepDownGrace(Duration grace) {
            if (grace.isNegative()) {
                throw new IllegalArgumentException("step-down grace must not be negative, got " + grace);
            }
            this.stepDownGrace = grace;
            return this;
        }

        /** Where runs, failures, run time and leading are registered, labelled {@code schedule=<name>}. */
        public Builder metrics(PrometheusRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        public Builder startOrder(int order) {
            this.startOrder = order;
            return this;
        }

        public LeaderSchedule build() {
            return new LeaderSchedule(this);
        }
    }
}
