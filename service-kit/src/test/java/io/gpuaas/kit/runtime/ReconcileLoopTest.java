package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReconcileLoopTest {

    private static final Duration SHORT = Duration.ofMillis(5);
    private ReconcileLoop<String> loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void shouldReconcileAKeyAtMostTwiceWhenItIsEnqueuedAHundredTimesWhileInFlight() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        loop = ReconcileLoop.<String>builder("coalescing", key -> {
                    runs.incrementAndGet();
                    entered.countDown();
                    release.await();
                    return Outcome.done();
                })
                .workers(4)
                .build();
        loop.start();
        loop.enqueue("cq-a");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 100; i++) {
            loop.enqueue("cq-a");
        }
        assertThat(loop.depth()).isEqualTo(1);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(loop::idle);
        assertThat(runs.get()).isBetween(1, 2);
    }

    @Test
    void shouldNeverReconcileOneKeyOnTwoWorkersAtOnceWhenManyWorkersRun() {
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        AtomicBoolean overlap = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        loop = ReconcileLoop.<String>builder("exclusive", key -> {
                    if (!inFlight.add(key)) {
                        overlap.set(true);
                    }
                    Thread.sleep(1);
                    inFlight.remove(key);
                    runs.incrementAndGet();
                    return Outcome.done();
                })
                .workers(8)
                .build();
        loop.start();
        for (int round = 0; round < 200; round++) {
            for (String key : List.of("a", "b", "c")) {
                loop.enqueue(key);
            }
            if (round % 20 == 0) {
                await().atMost(Duration.ofSeconds(10)).until(loop::idle);
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(loop::idle);
        assertThat(overlap).isFalse();
        assertThat(runs.get()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void shouldRetryAFailedKeyAndBeRunningAgainWhenItSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        loop = ReconcileLoop.<String>builder("retrying", key -> {
                    if (attempts.incrementAndGet() <= 4) {
                        throw new IllegalStateException("API server says no");
                    }
                    return Outcome.done();
                })
                .backoff(SHORT, SHORT)
                .failureThreshold(3)
                .build();
        loop.start();
        loop.enqueue("cq-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 5 && loop.idle());
        assertThat(attempts.get()).isEqualTo(5);
        assertThat(loop.health().state()).isEqualTo(State.RUNNING);
        assertThat(loop.health().ready()).isTrue();
    }

    @Test
    void shouldReportRecoveringWhenAKeyFailedAsOftenAsTheThreshold() {
        AtomicInteger attempts = new AtomicInteger();
        AtomicBoolean fixed = new AtomicBoolean();
        loop = ReconcileLoop.<String>builder("stuck", key -> {
                    attempts.incrementAndGet();
                    if (!fixed.get()) {
                        throw new IllegalStateException("quota webhook down");
                    }
                    return Outcome.done();
                })
                .backoff(SHORT, SHORT)
                .failureThreshold(3)
                .build();
        loop.start();
        loop.enqueue("cq-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> loop.health().state() == State.RECOVERING);
        assertThat(attempts.get()).isGreaterThanOrEqualTo(3);
        assertThat(loop.health().ready()).isFalse();
        assertThat(loop.health().alive()).isTrue();
        assertThat(loop.health().detail()).contains("cq-a").contains("quota webhook down");

        fixed.set(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> loop.health().state() == State.RUNNING);
        assertThat(loop.idle()).isTrue();
    }

    @Test
    void shouldRequeueAKeyWhenTheReconcilerAsksForIt() {
        AtomicInteger runs = new AtomicInteger();
        loop = ReconcileLoop.<String>builder(
                        "requeue", key -> runs.incrementAndGet() < 3 ? Outcome.requeueAfter(SHORT) : Outcome.done())
                .build();
        loop.start();
        loop.enqueue("drain-cq-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 3 && loop.idle());
    }

    @Test
    void shouldReconcileEveryKeyOfTheResyncWhenNothingWasEnqueued() {
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        loop = ReconcileLoop.<String>builder("resync", key -> {
                    seen.merge(key, 1, Integer::sum);
                    return Outcome.done();
                })
                .resync(Duration.ofMillis(50), () -> List.of("a", "b"))
                .build();
        loop.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> seen.getOrDefault("a", 0) >= 2 && seen.getOrDefault("b", 0) >= 2);
    }

    @Test
    void shouldReplaceAWorkerWhenAnErrorKillsIt() {
        AtomicInteger runs = new AtomicInteger();
        loop = ReconcileLoop.<String>builder("phoenix", key -> {
                    if (runs.incrementAndGet() == 1) {
                        throw new StackOverflowError("deep manifest");
                    }
                    return Outcome.done();
                })
                .backoff(SHORT, SHORT)
                .build();
        loop.start();
        loop.enqueue("cq-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 2 && loop.idle());
        assertThat(loop.health().restarts()).isEqualTo(1);
        assertThat(loop.health().state()).isEqualTo(State.RUNNING);
        loop.enqueue("cq-b");
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 3 && loop.idle());
    }

    @Test
    void shouldExposeDepthLatencyFailuresAndTotalsByLoopWhenGivenARegistry() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        AtomicInteger runs = new AtomicInteger();
        loop = ReconcileLoop.<String>builder("cohort-writer", key -> {
                    if (runs.incrementAndGet() == 1) {
                        throw new IllegalStateException("conflict");
                    }
                    return Outcome.done();
                })
                .backoff(SHORT, SHORT)
                .metrics(registry)
                .build();
        ReconcileLoop<String> other = ReconcileLoop.<String>builder("queue-writer", key -> Outcome.done())
                .metrics(registry)
                .build();
        loop.start();
        loop.enqueue("gpuaas-pool");
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 2 && loop.idle());

        String text = scrape(registry);
        assertThat(text)
                .contains("gpuaas_reconcile_total{loop=\"cohort-writer\"} 2.0")
                .contains("gpuaas_reconcile_failures_total{loop=\"cohort-writer\"} 1.0")
                .contains("gpuaas_reconcile_failures_total{loop=\"queue-writer\"} 0.0")
                .contains("gpuaas_reconcile_queue_depth{loop=\"cohort-writer\"} 0.0")
                .contains("gpuaas_reconcile_duration_seconds_count{loop=\"cohort-writer\"} 2");
        assertThat(other.depth()).isZero();
    }

    @Test
    void shouldLetTheInFlightReconcileFinishWhenStoppedWithinTheGrace() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicBoolean interrupted = new AtomicBoolean();
        loop = ReconcileLoop.<String>builder("graceful", key -> {
                    entered.countDown();
                    try {
                        Thread.sleep(200);
                        finished.set(true);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                    return Outcome.done();
                })
                .build();
        loop.start();
        loop.enqueue("cq-a");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        loop.stop(Duration.ofSeconds(30));
        assertThat(finished).isTrue();
        assertThat(interrupted).isFalse();
        assertThat(loop.health().state()).isEqualTo(State.STOPPED);
        assertThat(loop.health().ready()).isFalse();
    }

    @Test
    void shouldInterruptTheInFlightReconcileWhenTheGraceRunsOut() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        loop = ReconcileLoop.<String>builder("impatient", key -> {
                    entered.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                    return Outcome.done();
                })
                .build();
        loop.start();
        loop.enqueue("cq-a");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        loop.stop(Duration.ofMillis(50));
        assertThat(interrupted).isTrue();
        assertThat(loop.health().state()).isEqualTo(State.STOPPED);
    }

    static String scrape(PrometheusRegistry registry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }
}
