package io.gpuaas.bench.scale;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/** metrics-gateway's {@code /metrics} as Prometheus sees it: over HTTP, with the stack's demo {@code prometheus} token. */
final class MetricsProbe {

    /** Time to answer one scrape (whole HTTP exchange) over {@code n} scrapes, and what the last one held. */
    record Render(double p50Millis, double maxMillis, long series, long bytes) {}

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;
    private final String token;

    private MetricsProbe(String url, String token) {
        this.url = url;
        this.token = token;
    }

    static MetricsProbe of(Path tokens, String gatewayUrl) throws IOException {
        return new MetricsProbe(
                gatewayUrl + "/metrics",
                StackScale.readJson(tokens).path("prometheus").path("token").asText());
    }

    String scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + token)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + url + " answered " + response.statusCode());
        }
        return response.body();
    }

    /** Sum of every series of a counter family (all label sets). */
    double counter(String name) throws IOException, InterruptedException {
        return sum(scrape(), name);
    }

    static double sum(String text, String name) {
        return text.lines()
                .filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    static long series(String text) {
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
    }

    Render render(int n) throws IOException, InterruptedException {
        double[] millis = new double[n];
        String last = "";
        scrape(); // warm-up
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            last = scrape();
            millis[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(millis);
        return new Render(
                millis[n / 2],
                millis[n - 1],
                series(last),
                last.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }
}
