package io.gpuaas.metrics.scrape;

import io.gpuaas.metrics.dcgm.DcgmEndpoint;
import io.gpuaas.metrics.dcgm.DcgmScrape;
import io.gpuaas.metrics.dcgm.DcgmTextParser;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes one dcgm-exporter: fetch with a hard deadline, parse, hand the scrape to the sink. Owns its parser
 * (and so its label string pool) because the same labels repeat on every scrape of the same target.
 */
final class TargetScraper {

    private static final Logger LOG = LoggerFactory.getLogger(TargetScraper.class);

    private final ScrapeTarget target;
    private final HttpClient http;
    private final Duration timeout;
    private final SampleSink sink;
    private final ScrapeHealth health;
    private final Clock clock;
    private final DcgmTextParser parser = new DcgmTextParser();
    private final DcgmEndpoint endpoint;

    TargetScraper(
            ScrapeTarget target, HttpClient http, Duration timeout, SampleSink sink, ScrapeHealth health, Clock clock) {
        this.target = target;
        this.http = http;
        this.timeout = timeout;
        this.sink = sink;
        this.health = health;
        this.clock = clock;
        this.endpoint = target.endpoint();
    }

    /** One scrape; returns the target's health afterwards. Never throws except on interruption. */
    ScrapeHealth.TargetHealth scrapeOnce() throws InterruptedException {
        long start = System.nanoTime();
        try {
            byte[] body = fetch();
            DcgmScrape scrape = parser.parse(body, body.length, clock.instant(), endpoint);
            scrape.scrapes().forEach(sink::publish);
            return health.succeeded(target, seconds(start), scrape.devices(), scrape.badLines());
        } catch (IOException | TimeoutException | ExecutionException | RuntimeException e) {
            ScrapeHealth.TargetHealth after = health.failed(target, seconds(start));
            if (after.consecutiveFails() == 1) {
                LOG.warn("scrape of {} failed: {}", target.label(), describe(e));
            }
            return after;
        }
    }

    private byte[] fetch() throws IOException, InterruptedException, ExecutionException, TimeoutException {
        HttpRequest request = HttpRequest.newBuilder(target.url())
                .timeout(timeout)
                .header("Accept", "text/plain;version=0.0.4")
                .GET()
                .build();
        // request.timeout() only bounds the headers; the future bounds a body that trickles in too.
        CompletableFuture<HttpResponse<byte[]>> pending =
                http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        try {
            HttpResponse<byte[]> response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode());
            }
            return response.body();
        } finally {
            pending.cancel(true);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static String describe(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof TimeoutException
                ? "timed out"
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
