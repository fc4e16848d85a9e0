package io.gpuaas.kit.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.kit.k8s.LeaderSchedule.Periodic;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeaderScheduleTest {

    private static final Duration TICK = Duration.ofMillis(20);

    @Test
    void shouldRunTasksOnlyWhileLeadingAndNoneOnceSteppedDown() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        List<String> hooks = Collections.synchronizedList(new ArrayList<>());
        LeaderSchedule schedule = LeaderSchedule.builder("test-schedule")
                .task("count", Periodic.fixedDelay(Duration.ZERO, TICK, runs::incrementAndGet))
                .onLead(() -> hooks.add("lead"))
                .onStepDown(() -> hooks.add("stepDown:" + runs.get()))
                .build();
        schedule.start();

        assertThat(schedule.health().detail()).startsWith("standing by");
        assertThat(runs).as("a follower runs nothing").hasValue(0);

        schedule.lead();
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() >= 3);
        assertThat(schedule.health().detail()).isEqualTo("leading");

        schedule.stepDown();
        int atStepDown = runs.get();
        assertThat(hooks).containsExactly("lead", "stepDown:" + atStepDown);
        // Runs would come every 20 ms if the schedule went on: ten periods later there is still none.
        CountDownLatch never = new CountDownLatch(1);
        assertThat(never.await(10 * TICK.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
        assertThat(runs).as("no run after stepDown returned").hasValue(atStepDown);

        schedule.lead();
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() > atStepDown);
        schedule.stop(Duration.ofSeconds(1));
        int atStop = runs.get();
        assertThat(schedule.health().state()).isEqualTo(State.STOPPED);
        schedule.lead();
        assertThat(never.await(10 * TICK.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
        assertThat(runs).as("a stopped schedule never leads again").hasValue(atStop);
    }

    @Test
    void shouldGoOnRunningAndCountTheFailureWhenATaskThrows() {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        LeaderSchedule schedule = LeaderSchedule.builder("failing-schedule")
                .task("flaky", Periodic.fixedRate(() -> Duration.ZERO, TICK, () -> {
                    if (runs.incrementAndGet() % 2 == 1) {
                        throw new IllegalStateException("broker away");
                    }
                }))
                .task("steady", Periodic.fixedDelay(Duration.ZERO, TICK, other::incrementAndGet))
                .build();
        schedule.start();
        schedule.lead();

        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() >= 6 && other.get() >= 6);
        assertThat(schedule.failures()).isGreaterThanOrEqualTo(3);
        assertThat(schedule.health().state())
                .as("a failed run is retried by the next one, not a reason to leave traffic")
                .isEqualTo(State.RUNNING);
        assertThat(schedule.health().detail()).contains("runs failed", "flaky", "broker away");
        schedule.stop(Duration.ofSeconds(1));
    }

    @Test
    void shouldStartAddedTasksWhileLeadingAndInterruptRemovedOnes() throws Exception {
        LeaderSchedule schedule = LeaderSchedule.builder("dynamic-schedule").build();
        schedule.start();
        AtomicInteger before = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        schedule.put("added-before", Periodic.fixedDelay(Duration.ZERO, TICK, before::incrementAndGet));
        schedule.lead();
        await().atMost(Duration.ofSeconds(5)).until(() -> before.get() > 0);
        schedule.put(
                "blocking",
                new Periodic(
                        () -> Duration.ZERO,
                        () -> {
                            started.countDown();
                            try {
                                Thread.sleep(Duration.ofMinutes(5));
                            } catch (InterruptedException e) {
                                interrupted.countDown();
                            }
                            return null;
                        },
                        TICK));
        assertThat(started.await(5, TimeUnit.SECONDS))
                .as("added while leading: runs at once")
                .isTrue();

        schedule.remove("blocking");

        assertThat(interrupted.await(5, TimeUnit.SECONDS))
                .as("a removed task's run is interrupted")
                .isTrue();
        assertThat(schedule.tasks()).containsExactly("added-before");
        schedule.stop(Duration.ofSeconds(1));
    }

    @Test
    void shouldWaitForARunInFlightBeforeTheStepDownHook() {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch running = new CountDownLatch(1);
        LeaderSchedule schedule = LeaderSchedule.builder("slow-schedule")
                .task("slow", Periodic.fixedDelay(Duration.ZERO, Duration.ofHours(1), () -> {
                    running.countDown();
                    sleep(Duration.ofMillis(200));
                    log.add("run ended");
                }))
                .onStepDown(() -> log.add("step-down hook"))
                .build();
        schedule.start();
        schedule.lead();
        await().atMost(Duration.ofSeconds(5)).until(() -> running.getCount() == 0);

        schedule.stepDown();

        assertThat(log).containsExactly("run ended", "step-down hook");
        schedule.stop(Duration.ofSeconds(1));
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
