package io.gpuaas.system.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's {@code prometheus} binary on a loopback port with a generated config ({@code e2e/prometheus.yml}) and a
 * fresh data directory, scraping one target with a bearer token read from a file. Queried through its HTTP API.
 */
final class LoopbackPrometheus implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/prometheus");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Process process;
    private final int port;
    private final Path dir;

    private LoopbackPrometheus(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    static LoopbackPrometheus scraping(String target, String bearerToken, Path parent) throws IOException {
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, "prometheus-");
        Path tokenFile = Files.writeString(dir.resolve("token"), bearerToken);
        String config;
        try (InputStream in = LoopbackPrometheus.class.getResourceAsStream("/e2e/prometheus.yml")) {
            config = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("${TOKEN_FILE}", tokenFile.toString())
                    .replace("${TARGET}", target);
        }
        Path configFile = Files.writeString(dir.resolve("prometheus.yml"), config);
        int port = freePort();
        Process process = new ProcessBuilder(
                        BINARY.toString(),
                        "--config.file=" + configFile,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port,
                        "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        return new LoopbackPrometheus(process, port, dir);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    boolean ready() {
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** The value of the single series an instant query returns; empty when it returns none. */
    Optional<Double> value(String promql) throws IOException {
        JsonNode answer = query(promql);
        JsonNode result = answer.path("data").path("result");
        if (!"success".equals(answer.path("status").asText())) {
            throw new IllegalStateException(promql + " failed: " + answer);
        }
        if (result.size() > 1) {
            throw new IllegalStateException(promql + " returned " + result.size() + " series: " + result);
        }
        return result.isEmpty()
                ? Optional.empty()
                : Optional.of(result.get(0).path("value").get(1).asDouble());
    }

    /** The raw answer of an instant PromQL query through {@code /api/v1/query}. */
    JsonNode query(String promql) throws IOException {
        return Json.mapper()
                .readTree(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                        .body());
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    String log() {
        try {
            return Files.readString(dir.resolve("prometheus.log"));
        } catch (IOException e) {
            return "(no prometheus log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        // The TSDB is only for this run; the config and the log stay for a look after a failure.
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // Nothing was written, or it is gone already: nothing to clean.
        }
    }
}
