package io.gpuaas.metrics.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScrapeSchedulerTest {

    private final HttpServer exporters;
    private final AtomicInteger brokenCalls = new AtomicInteger();
    private final Map<String, AtomicInteger> published = new ConcurrentHashMap<>();
    private final ScrapeHealth health = new ScrapeHealth();
    private final AtomicInteger sinkFlushed = new AtomicInteger();
    private final ScrapeScheduler scheduler;

    ScrapeSchedulerTest() throws IOException {
        byte[] t4;
        try (InputStream in = getClass().getResourceAsStream("/dcgm/dcgm-exporter-t4.prom")) {
            t4 = in.readAllBytes();
        }
        exporters = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        exporters.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        exporters.createContext("/fast", exchange -> respond(exchange, 200, t4));
        exporters.createContext("/slow", exchange -> {
            sleep(Duration.ofSeconds(20));
            respond(exchange, 200, t4);
        });
        exporters.createContext("/broken", exchange -> {
            brokenCalls.incrementAndGet();
            respond(exchange, 500, new byte[0]);
        });
        exporters.start();
        SampleSink sink = new SampleSink() {
            @Override
            public void publish(GpuScrape scrape) {
                published
                        .computeIfAbsent(scrape.target(), k -> new AtomicInteger())
                        .addAndGet(scrape.devices().size());
            }

            @Override
            public void flush() {
                sinkFlushed.incrementAndGet();
            }
        };
        scheduler = new ScrapeScheduler(
                new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2)),
                Duration.ofMillis(300),
                sink,
                health,
                Clock.systemUTC(),
                new PrometheusRegistry());
    }

    @AfterEach
    void stop() {
        scheduler.close();
        exporters.stop(0);
    }

    @Test
    void shouldScrapeTargetsSetBeforeStartOnlyOnceStartedAndFlushTheSinkWhenStopped() {
        scheduler.lead();
        scheduler.setTargets("config", Set.of(target("/fast")));
        assertThat(scheduler.targets()).isEmpty();
        assertThat(scheduler.health().state()).isEqualTo(ComponentHealth.State.STARTING);

        scheduler.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> published.containsKey(key("/fast")));
        assertThat(scheduler.health().ready()).isTrue();

        scheduler.stop(Duration.ofSeconds(2));
        scheduler.close();
        assertThat(scheduler.targets()).isEmpty();
        assertThat(scheduler.health().state()).isEqualTo(ComponentHealth.State.STOPPED);
        assertThat(sinkFlushed)
                .as("stopping flushes the sink once; its owner closes it")
                .hasValue(1);
    }

    @Test
    void shouldScrapeOnlyWhileLeadingAndFlushTheSinkWhenSteppingDown() {
        scheduler.start();
        scheduler.setTargets("config", Set.of(target("/fast")));
        assertThat(scheduler.targets())
                .as("a follower knows its targets but scrapes none")
                .isEmpty();
        assertThat(scheduler.health().ready()).as("a follower is ready").isTrue();
        assertThat(scheduler.health().detail()).contains("standing by", "1 targets known");

        scheduler.lead();
        await().atMost(Duration.ofSeconds(5)).until(() -> published.containsKey(key("/fast")));
        assertThat(scheduler.targets()).hasSize(1);

        scheduler.stepDown();
        int afterStepDown = published.get(key("/fast")).get();
        assertThat(scheduler.targets()).isEmpty();
        assertThat(health.targets()).as("scrape_up is the leader's to report").isEmpty();
        assertThat(sinkFlushed).hasValue(1);
        scheduler.setTargets("config", Set.of(target("/fast"), target("/broken")));
        assertThat(scheduler.targets()).isEmpty();
        assertThat(published.get(key("/fast"))).hasValue(afterStepDown);

        scheduler.lead();
        assertThat(scheduler.targets()).hasSize(2);
    }

    @Test
    void shouldKeepScrapingTheHealthyTargetOnScheduleWhenAnotherTargetHangs() {
        scheduler.start();
        scheduler.lead();
        scheduler.setTargets("config", Set.of(target("/fast"), target("/slow")));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(published.get(key("/fast"))).hasValueGreaterThanOrEqualTo(10);
            assertThat(health.targets().get(key("/slow")).up()).isFalse();
            assertThat(health.targets().get(key("/fast")).up()).isTrue();
        });
        assertThat(published).doesNotContainKey(key("/slow"));
    }

    @Test
    void shouldBackOffExponentiallyWhenATargetKeepsFailing() throws InterruptedException {
        scheduler.start();
        scheduler.lead();
        scheduler.setTargets("config", Set.of(target("/broken")));
        await().atMost(Duration.ofSeconds(10)).until(() -> failures() >= 1);

        Thread.sleep(1_600);

        // 100 ms interval without backoff would be ~16 more attempts; with 200, 400, 800 ms waits at most 3 more
        // (fewer on a loaded machine). An attempt that times out before reaching the exporter fails all the same,
        // so the exporter's count is only an upper bound of what it answered.
        assertThat(failures()).isBetween(1L, 4L);
        assertThat(brokenCalls.get()).isLessThanOrEqualTo(4);
        assertThat(health.targets()).hasSize(1);
    }

    private long failures() {
        return health.targets().values().stream()
                .mapToLong(ScrapeHealth.TargetHealth::failuresTotal)
                .sum();
    }

    @Test
    void shouldStopScrapingATargetWhenItsOriginNoLongerListsIt() {
        scheduler.start();
        scheduler.lead();
        scheduler.setTargets("kubernetes", Set.of(target("/fast")));
        await().atMost(Duration.ofSeconds(5)).until(() -> published.containsKey(key("/fast")));

        scheduler.setTargets("kubernetes", Set.of());

        assertThat(scheduler.targets()).isEmpty();
        assertThat(health.targets()).isEmpty();
    }

    @Test
    void shouldScrapeAUrlOnceWhenTwoOriginsListIt() {
        scheduler.start();
        scheduler.lead();
        scheduler.setTargets("config", Set.of(target("/fast")));
        scheduler.setTargets("kubernetes", Set.of(target("/fast")));

        assertThat(scheduler.targets()).hasSize(1);
        scheduler.setTargets("config", Set.of());
        assertThat(scheduler.targets()).hasSize(1);
    }

    private ScrapeTarget target(String path) {
        return ScrapeTarget.configured(
                "http://127.0.0.1:" + exporters.getAddress().getPort() + path);
    }

    private String key(String path) {
        return "127.0.0.1:" + exporters.getAddress().getPort() + path;
    }

    private static void respond(com.sun.net.httpserver.HttpExchange exchange, int status, byte[] body)
            throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
