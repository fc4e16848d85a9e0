package io.gpuaas.metrics.scrape;

import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaderSchedule.Periodic;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.metrics.StartOrder;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code scrape-scheduler}: one periodic task per scrape target on a service-kit {@link LeaderSchedule} (a
 * kit-owned virtual thread per scrape), so a slow or dead exporter delays nobody but itself. Targets come from several
 * origins (configuration, Kubernetes discovery); each origin replaces its own set, and a URL known to two origins is
 * scraped once. Scraping is a {@link LeaderDuty}: every replica keeps its targets up to date, only the one that leads
 * (holds the gateway's Lease) scrapes them, once started, from {@link #lead()} to {@link #stepDown()}, so each sample
 * is published once. A failing exporter is a metric ({@code gpuaas_scrape_up}), not a readiness problem: the
 * component is {@code RUNNING} whatever its targets do, leading or not. Stopping ends the scrapes, then flushes the
 * sink; the sink belongs to whoever made it (the remote-write endpoint shares it).
 */
public final class ScrapeScheduler implements ServiceComponent, LeaderDuty, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScrapeScheduler.class);

    private final Backoff backoff;
    private final Duration timeout;
    private final SampleSink sink;
    private final ScrapeHealth health;
    private final Clock clock;
    private final HttpClient http;
    private final LeaderSchedule scrapes;
    private final Map<String, Set<ScrapeTarget>> byOrigin = new HashMap<>();
    private boolean started;
    private boolean leading;
    private boolean closed;

    public ScrapeScheduler(
            Backoff backoff,
            Duration timeout,
            SampleSink sink,
            ScrapeHealth health,
            Clock clock,
            PrometheusRegistry registry) {
        this.backoff = backoff;
        this.timeout = timeout;
        this.sink = sink;
        this.health = health;
        this.clock = clock;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        // A scrape in flight at step-down gets its timeout to end; the targets' gpuaas_scrape_up series go then: the
        // leader reports them, a follower would only repeat stale values.
        this.scrapes = LeaderSchedule.builder("scrape-scheduler")
                .stepDownGrace(timeout.plusSeconds(1))
                .onStepDown(() -> scrapes().tasks().forEach(url -> health.forget(ScrapeTarget.configured(url))))
                .metrics(registry)
                .build();
    }

    private LeaderSchedule scrapes() {
        return scrapes;
    }

    @Override
    public String name() {
        return "scrape-scheduler";
    }

    @Override
    public int startOrder() {
        return StartOrder.SCRAPES;
    }

    @Override
    public void start() {
        synchronized (this) {
            if (started || closed) {
                return;
            }
            started = true;
            scrapes.start();
            if (!leading) {
                return;
            }
        }
        scrapes.lead();
    }

    @Override
    public synchronized ComponentHealth health() {
        State state = closed ? State.STOPPED : started ? State.RUNNING : State.STARTING;
        String detail = scrapes.leading()
                ? "scraping " + scrapes.tasks().size() + " targets"
                : "standing by: another replica scrapes (" + wanted().size() + " targets known)";
        ComponentHealth schedule = scrapes.health();
        int failed = schedule.detail().indexOf("; ");
        return new ComponentHealth(
                state, true, detail + (failed < 0 ? "" : schedule.detail().substring(failed)), 0);
    }

    /** Won the gateway's Lease: scrape every target from now on (once started). */
    @Override
    public void lead() {
        synchronized (this) {
            if (closed) {
                return;
            }
            leading = true;
            if (!started) {
                return;
            }
        }
        scrapes.lead();
    }

    /** Lost the Lease (or stopping): no scrape runs and every scraped sample is sent once this returns. */
    @Override
    public void stepDown() {
        synchronized (this) {
            leading = false;
        }
        scrapes.stepDown();
        sink.flush();
    }

    /** Replaces the targets of {@code origin}; while leading, new URLs are scraped at once and vanished ones stop. */
    public synchronized void setTargets(String origin, Set<ScrapeTarget> targets) {
        if (closed) {
            return;
        }
        byOrigin.put(origin, Set.copyOf(targets));
        Map<URI, ScrapeTarget> wanted = wanted();
        for (String gone : scrapes.tasks()) {
            if (!wanted.containsKey(URI.create(gone))) {
                scrapes.remove(gone);
                health.forget(ScrapeTarget.configured(gone));
                LOG.info("stopped scraping {}", gone);
            }
        }
        Set<String> known = scrapes.tasks();
        wanted.forEach((url, target) -> {
            if (!known.contains(url.toString())) {
                LOG.info("scraping {} every {} ({})", url, backoff.interval(), target.origin());
                scrapes.put(url.toString(), scrapesOf(target));
            }
        });
    }

    private Map<URI, ScrapeTarget> wanted() {
        Map<URI, ScrapeTarget> wanted = new HashMap<>();
        byOrigin.values().forEach(set -> set.forEach(t -> wanted.putIfAbsent(t.url(), t)));
        return wanted;
    }

    /** The URLs scraped now: every target while leading and started, none otherwise. */
    public Set<URI> targets() {
        return scrapes.leading()
                ? scrapes.tasks().stream().map(URI::create).collect(Collectors.toUnmodifiableSet())
                : Set.of();
    }

    /** Scrapes of one target: the first within half an interval, then as the backoff says after each outcome. */
    private Periodic scrapesOf(ScrapeTarget target) {
        TargetScraper scraper = new TargetScraper(target, http, timeout, sink, health, clock);
        return new Periodic(
                // Spread the first scrapes over half an interval so a thousand exporters are not hit in one instant.
                () -> Duration.ofMillis(ThreadLocalRandom.current()
                        .nextLong(Math.max(1, backoff.interval().toMillis() / 2))),
                () -> {
                    long start = System.nanoTime();
                    ScrapeHealth.TargetHealth after = scraper.scrapeOnce();
                    return after.up()
                            ? backoff.afterSuccess(Duration.ofNanos(System.nanoTime() - start))
                            : backoff.afterFailures(after.consecutiveFails());
                },
                backoff.interval());
    }

    /**
     * Ends the scrapes (one in flight gets its timeout to finish, so shutdown does not publish half a scrape late),
     * then flushes the sink, which sends what it buffered.
     */
    @Override
    public void stop(Duration grace) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            leading = false;
        }
        try {
            scrapes.stop(grace);
        } finally {
            http.close();
            sink.flush();
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(2));
    }
}
