package io.gpuaas.metrics.scrape;

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
 * Runs one virtual thread per scrape target, so a slow or dead exporter delays nobody but itself. Targets come
 * from several origins (configuration, Kubernetes discovery); each origin replaces its own set, and a URL
 * known to two origins is scraped once.
 */
public final class ScrapeScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScrapeScheduler.class);

    private final Backoff backoff;
    private final Duration timeout;
    private final SampleSink sink;
    private final ScrapeHealth health;
    private final Clock clock;
    private final HttpClient http;
    private final Map<String, Set<ScrapeTarget>> byOrigin = new HashMap<>();
    private final Map<URI, Thread> running = new HashMap<>();
    private boolean closed;

    public ScrapeScheduler(Backoff backoff, Duration timeout, SampleSink sink, ScrapeHealth health, Clock clock) {
        this.backoff = backoff;
        this.timeout = timeout;
        this.sink = sink;
        this.health = health;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Replaces the targets of {@code origin}; starts loops for new URLs and stops loops for vanished ones. */
    public synchronized void setTargets(String origin, Set<ScrapeTarget> targets) {
        if (closed) {
            return;
        }
        byOrigin.put(origin, Set.copyOf(targets));
        Map<URI, ScrapeTarget> wanted = new HashMap<>();
        byOrigin.values().forEach(set -> set.forEach(t -> wanted.putIfAbsent(t.url(), t)));
        for (URI gone : new HashSet<>(running.keySet())) {
            if (!wanted.containsKey(gone)) {
                running.remove(gone).interrupt();
                health.forget(ScrapeTarget.configured(gone.toString()));
                LOG.info("stopped scraping {}", gone);
            }
        }
        wanted.forEach((url, target) -> running.computeIfAbsent(url, u -> start(target)));
    }

    public synchronized Set<URI> targets() {
        return Set.copyOf(running.keySet());
    }

    private Thread start(ScrapeTarget target) {
        LOG.info("scraping {} every {} ({})", target.url(), backoff.interval(), target.origin());
        TargetScraper scraper = new TargetScraper(target, http, timeout, sink, health, clock);
        return Thread.ofVirtual().name("scrape-" + target.label()).start(() -> loop(scraper));
    }

    private void loop(TargetScraper scraper) {
        try {
            // Spread the first scrapes over one interval so a thousand exporters are not hit in the same instant.
            Thread.sleep(ThreadLocalRandom.current().nextLong(Math.max(1, backoff.interval().toMillis() / 2)));
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

    /** Stops every loop and waits briefly for in-flight scrapes, so shutdown does not publish half a scrape late. */
    @Override
    public void close() throws InterruptedException {
        Map<URI, Thread> stopping;
        synchronized (this) {
            closed = true;
            stopping = new HashMap<>(running);
            running.clear();
        }
        stopping.values().forEach(Thread::interrupt);
        for (Thread thread : stopping.values()) {
            thread.join(Duration.ofSeconds(2));
        }
        http.close();
    }
}
