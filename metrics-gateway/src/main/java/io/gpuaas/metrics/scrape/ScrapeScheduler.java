package io.gpuaas.metrics.scrape;

import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.metrics.StartOrder;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code scrape-scheduler}: one virtual thread per scrape target, so a slow or dead exporter delays nobody
 * but itself. Targets come from several origins (configuration, Kubernetes discovery); each origin replaces its own
 * set, and a URL known to two origins is scraped once. Scraping is a {@link LeaderDuty}: every replica keeps its
 * targets up to date, only the one that leads (holds the gateway's Lease) scrapes them, from {@link #lead()} to
 * {@link #stepDown()}, so each sample is published once. A failing exporter is a metric ({@code gpuaas_scrape_up}),
 * not a readiness problem: the component is {@code RUNNING} whatever its targets do, leading or not. Stopping ends
 * the loops, then flushes the sink; the sink belongs to whoever made it (the remote-write endpoint shares it).
 */
public final class ScrapeScheduler implements ServiceComponent, LeaderDuty, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScrapeScheduler.class);

    private final Backoff backoff;
    private final Duration timeout;
    private final SampleSink sink;
    private final ScrapeHealth health;
    private final Clock clock;
    private final HttpClient http;
    private final Map<String, Set<ScrapeTarget>> byOrigin = new HashMap<>();
    private final Map<URI, Thread> running = new HashMap<>();
    private boolean started;
    private boolean leading;
    private boolean closed;

    public ScrapeScheduler(Backoff backoff, Duration timeout, SampleSink sink, ScrapeHealth health, Clock clock) {
        this.backoff = backoff;
        this.timeout = timeout;
        this.sink = sink;
        this.health = health;
        this.clock = clock;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
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
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        if (leading) {
            reconcile();
        }
    }

    @Override
    public synchronized ComponentHealth health() {
        State state = closed ? State.STOPPED : started ? State.RUNNING : State.STARTING;
        String detail = leading
                ? "scraping " + running.size() + " targets"
                : "standing by: another replica scrapes (" + wanted().size() + " targets known)";
        return new ComponentHealth(state, true, detail, 0);
    }

    /** Won the gateway's Lease: scrape every target from now on. */
    @Override
    public synchronized void lead() {
        if (closed) {
            return;
        }
        leading = true;
        if (started) {
            reconcile();
        }
    }

    /**
     * Lost the Lease (or stopping): no scrape runs and every scraped sample is sent once this returns. The targets'
     * {@code gpuaas_scrape_up} series go too: the leader reports them, a follower would only repeat stale values.
     */
    @Override
    public void stepDown() {
        synchronized (this) {
            leading = false;
        }
        endLoops(timeout.plusSeconds(1)).forEach(url -> health.forget(ScrapeTarget.configured(url.toString())));
        sink.flush();
    }

    /** Replaces the targets of {@code origin}; while leading, starts loops for new URLs and stops vanished ones. */
    public synchronized void setTargets(String origin, Set<ScrapeTarget> targets) {
        if (closed) {
            return;
        }
        byOrigin.put(origin, Set.copyOf(targets));
        if (started && leading) {
            reconcile();
        }
    }

    private Map<URI, ScrapeTarget> wanted() {
        Map<URI, ScrapeTarget> wanted = new HashMap<>();
        byOrigin.values().forEach(set -> set.forEach(t -> wanted.putIfAbsent(t.url(), t)));
        return wanted;
    }

    private void reconcile() {
        Map<URI, ScrapeTarget> wanted = wanted();
        for (URI gone : new HashSet<>(running.keySet())) {
            if (!wanted.containsKey(gone)) {
                running.remove(gone).interrupt();
                health.forget(ScrapeTarget.configured(gone.toString()));
                LOG.info("stopped scraping {}", gone);
            }
        }
        wanted.forEach((url, target) -> running.computeIfAbsent(url, u -> launch(target)));
    }

    public synchronized Set<URI> targets() {
        return Set.copyOf(running.keySet());
    }

    private Thread launch(ScrapeTarget target) {
        LOG.info("scraping {} every {} ({})", target.url(), backoff.interval(), target.origin());
        TargetScraper scraper = new TargetScraper(target, http, timeout, sink, health, clock);
        return Thread.ofVirtual().name("scrape-" + target.label()).start(() -> loop(scraper));
    }

    private void loop(TargetScraper scraper) {
        try {
            // Spread the first scrapes over one interval so a thousand exporters are not hit in the same instant.
            Thread.sleep(ThreadLocalRandom.current()
                    .nextLong(Math.max(1, backoff.interval().toMillis() / 2)));
            while (!Thread.currentThread().isInterrupted()) {
                long start = System.nanoTime();
                ScrapeHealth.TargetHealth after = scraper.scrapeOnce();
                Duration next = after.up()
                        ? backoff.afterSuccess(Duration.ofNanos(System.nanoTime() - start))
                        : backoff.afterFailures(after.consecutiveFails());
                Thread.sleep(next);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops every loop and waits up to {@code grace} for in-flight scrapes, so shutdown does not publish half a
     * scrape late; then flushes the sink, which sends what it buffered.
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
            endLoops(grace);
        } finally {
            http.close();
            sink.flush();
        }
    }

    /** Interrupts every scrape loop and waits up to {@code grace} for them to end; the URLs they scraped. */
    private Set<URI> endLoops(Duration grace) {
        Map<URI, Thread> stopping;
        synchronized (this) {
            stopping = new HashMap<>(running);
            running.clear();
        }
        stopping.values().forEach(Thread::interrupt);
        long deadline = System.nanoTime() + grace.toNanos();
        try {
            for (Thread thread : stopping.values()) {
                thread.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return stopping.keySet();
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(2));
    }
}
