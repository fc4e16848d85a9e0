package io.gpuaas.metrics;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (the Debian {@code prometheus} binary) on a loopback port, with a temporary config
 * and storage, scraping one target every second; a bearer token read from a file authenticates the scrape, or the
 * remote-write.
 */
final class PrometheusServer implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/prometheus");
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Process process;
    private final int port;
    private final Path dir;

    private PrometheusServer(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    static boolean available() {
        return Files.isExecutable(BINARY) && Files.isExecutable(PROMTOOL);
    }

    static PrometheusServer scraping(String hostPort, String bearerToken) throws IOException {
        return start(bearerToken, token -> """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: metrics-gateway
                    scrape_interval: 1s
                    scrape_timeout: 1s
                    authorization:
                      type: Bearer
                      credentials_file: %s
                    static_configs:
                      - targets: ['%s']
                """.formatted(token, hostPort));
    }

    /**
     * A Prometheus scraping the exporter at {@code exporterHostPort} every second (its series labelled with
     * {@code targetLabels}, as a relabel would) and remote-writing everything to {@code writeUrl} with a bearer
     * token read from a file, batches sent at least every second.
     */
    static PrometheusServer remoteWriting(
            String exporterHostPort, String targetLabels, String writeUrl, String bearerToken) throws IOException {
        return start(bearerToken, token -> """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: dcgm-exporter
                    scrape_interval: 1s
                    scrape_timeout: 1s
                    static_configs:
                      - targets: ['%s']
                        labels: {%s}
                remote_write:
                  - url: %s
                    authorization:
                      type: Bearer
                      credentials_file: %s
                    queue_config:
                      batch_send_deadline: 1s
                """.formatted(exporterHostPort, targetLabels, writeUrl, token));
    }

    /** Starts Prometheus on a free loopback port with the config {@code config} writes for the token file. */
    private static PrometheusServer start(String bearerToken, java.util.function.Function<Path, String> config)
            throws IOException {
        Path dir = Files.createTempDirectory("prometheus-it");
        Path token = Files.writeString(dir.resolve("token"), bearerToken);
        Path configFile = Files.writeString(dir.resolve("prometheus.yml"), config.apply(token));
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
        return new PrometheusServer(process, port, dir);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    boolean ready() {
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The raw JSON answer of an instant PromQL query. */
    String query(String promql) throws IOException, InterruptedException {
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .body();
    }

    /** Prometheus' own exposition (its remote-write queue's counters among others). */
    String selfMetrics() throws IOException, InterruptedException {
        return get("/metrics").body();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    String log() throws IOException {
        Path log = dir.resolve("prometheus.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Runs {@code promtool check metrics} on {@code exposition}; returns its exit code and output. */
    static Result checkMetrics(String exposition) throws IOException, InterruptedException {
        Process promtool = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics")
                .redirectErrorStream(true)
                .start();
        try (var in = promtool.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!promtool.waitFor(30, TimeUnit.SECONDS)) {
            promtool.destroyForcibly();
        }
        return new Result(promtool.exitValue(), output);
    }

    record Result(int exitCode, String output) {}

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
