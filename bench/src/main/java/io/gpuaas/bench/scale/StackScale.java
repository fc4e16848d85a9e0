package io.gpuaas.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuaas.bench.BenchOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the whole local stack (deploy/local: broker, API server, a simulated dcgm-exporter per node, Kueue stand-in and
 * the four services, each in its own JVM) at one fleet size, lets it run, then measures what the size costs: each
 * service's heap after a full GC and RSS, metrics-gateway's ingest rate and its {@code /metrics} (time to answer,
 * series, bytes), and how long the stack took to be ready. Prints {@code RESULT} lines for the suite.
 *
 * <p>Usage: {@code StackScale --gpus N --tenants N [--settle S] [--ready-timeout S] [--repo-root DIR] [--work DIR]}
 */
public final class StackScale {

    private static final Pattern READY = Pattern.compile("local stack ready in ([\\d.]+) s");

    private StackScale() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int gpus = opts.integer("gpus", 1000);
        int tenants = opts.integer("tenants", 100);
        int settle = opts.integer("settle", 30);
        int readyTimeout = opts.integer("ready-timeout", 540);
        Path root = opts.path("repo-root", ".").toAbsolutePath().normalize();
        Path work = opts.path("work", "bench/target/suite/stack-" + gpus + "-" + tenants)
                .toAbsolutePath();
        Files.createDirectories(work);
        String tag = "scale." + gpus + "g." + tenants + "t.";
        Process stack = start(root, work, gpus, tenants, readyTimeout);
        Thread stopper = new Thread(
                () -> {
                    stack.toHandle().descendants().forEach(ProcessHandle::destroy);
                    stack.destroy();
                },
                "stop-stack");
        Runtime.getRuntime().addShutdownHook(stopper);
        int code = 0;
        try {
            double ready = awaitReady(stack, work.resolve("stack.log"), readyTimeout + 60);
            result(tag + "ready_s", ready, "s");
            Thread.sleep(Math.max(5, settle / 2) * 1000L);
            MetricsProbe probe = MetricsProbe.of(work.resolve("demo-tokens.json"), gatewayUrl(stack));
            double published0 = probe.counter("gpuaas_gpu_samples_published_total");
            long t0 = System.nanoTime();
            Thread.sleep(Math.max(5, settle / 2) * 1000L);
            double published1 = probe.counter("gpuaas_gpu_samples_published_total");
            result(
                    tag + "ingest_samples_per_s",
                    (published1 - published0) / ((System.nanoTime() - t0) / 1e9),
                    "samples/s");
            MetricsProbe.Render render = probe.render(10);
            result(tag + "metrics_render_p50_ms", render.p50Millis(), "ms");
            result(tag + "metrics_render_max_ms", render.maxMillis(), "ms");
            result(tag + "metrics_series", render.series(), "series");
            result(tag + "metrics_kib", render.bytes() / 1024.0, "KiB");
            for (JvmMemory.Usage usage : JvmMemory.measureTree(stack.toHandle())) {
                result(tag + "heap_mib." + usage.name(), usage.heapUsedAfterGcMib(), "MiB");
                result(tag + "rss_mib." + usage.name(), usage.rssMib(), "MiB");
            }
        } catch (Exception e) {
            System.out.println("PROBLEM " + tag.substring(0, tag.length() - 1) + " failed: " + e);
            code = 1;
        } finally {
            stop(stack);
        }
        System.exit(code);
    }

    private static Process start(Path root, Path work, int gpus, int tenants, int readyTimeout) throws IOException {
        Path local = root.resolve("deploy/local/target");
        String classpath = local.resolve("classes") + ":"
                + Files.readString(local.resolve("classpath.txt")).trim();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Port 0: the stack gives each service a free port once its own broker, API server and exporters are
        // bound; a block probed here beforehand was once taken by one of those ephemeral ports.
        String port = "0";
        List<String> command = new ArrayList<>(List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xss512k",
                "-Xmx1536m",
                "--sun-misc-unsafe-memory-access=allow",
                "-Dgpuaas.local.repo-root=" + root,
                "-Dgpuaas.local.target-dir=" + work,
                "-cp",
                classpath,
                "io.gpuaas.local.LocalStack",
                "--gpus",
                Integer.toString(gpus),
                "--tenants",
                Integer.toString(tenants),
                "--kafka-port",
                "0",
                "--kube-port",
                "0",
                "--fleet-port",
                "0",
                "--service-port",
                port,
                "--ready-timeout",
                Integer.toString(readyTimeout),
                "--target-dir",
                work.toString()));
        List<String> built = builtServices(root);
        command.addAll(List.of("--only", String.join(",", built)));
        System.out.println("starting the local stack: --gpus " + gpus + " --tenants " + tenants + " --service-port 0"
                + " --only " + String.join(",", built));
        return new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .start();
    }

    /**
     * The services whose main class and classpath are built. A service being rebuilt by someone else at that moment is
     * left out (and reported) rather than failing the whole stack.
     */
    static List<String> builtServices(Path root) {
        List<String> built = new ArrayList<>();
        for (String[] s : new String[][] {
            {"booking-service", "io/gpuaas/booking/BookingServiceApplication"},
            {"quota-projector", "io/gpuaas/quota/QuotaProjectorApplication"},
            {"idle-reclaimer", "io/gpuaas/reclaim/IdleReclaimerApplication"},
            {"metrics-gateway", "io/gpuaas/metrics/MetricsGatewayApplication"}
        }) {
            Path target = root.resolve(s[0]).resolve("target");
            if (Files.isRegularFile(target.resolve("classes").resolve(s[1] + ".class"))
                    && Files.isRegularFile(target.resolve("classpath.txt"))) {
                built.add(s[0]);
            } else {
                System.out.println("PROBLEM " + s[0] + " is not built (no main class or classpath.txt in its target/): "
                        + "left out of the stack at this size");
            }
        }
        return built;
    }

    /** Copies the stack's output to a log and returns its own "ready in" figure. */
    private static double awaitReady(Process stack, Path log, int timeoutSeconds) throws Exception {
        CompletableFuture<Double> ready = new CompletableFuture<>();
        Thread pump = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                                    new InputStreamReader(stack.getInputStream(), StandardCharsets.UTF_8));
                            PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            out.println(line);
                            Matcher m = READY.matcher(line);
                            if (m.find()) {
                                ready.complete(Double.parseDouble(m.group(1)));
                            }
                        }
                        ready.completeExceptionally(
                                new IllegalStateException("the stack exited before it was ready; see " + log));
                    } catch (IOException e) {
                        ready.completeExceptionally(e);
                    }
                },
                "stack-log");
        pump.setDaemon(true);
        pump.start();
        return ready.get(timeoutSeconds, TimeUnit.SECONDS);
    }

    /** metrics-gateway's URL, read from its JVM's command line (the stack picks the ports). */
    private static String gatewayUrl(Process stack) {
        return stack.toHandle()
                .descendants()
                .map(p -> JvmMemory.commandLine(p.pid()))
                .filter(a -> a.contains("io.gpuaas.metrics.MetricsGatewayApplication"))
                .flatMap(List::stream)
                .filter(a -> a.startsWith("-Dmicronaut.server.port="))
                .map(a -> "http://127.0.0.1:" + a.substring(a.indexOf('=') + 1))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("metrics-gateway is not running"));
    }

    private static void stop(Process stack) throws InterruptedException {
        List<ProcessHandle> children = stack.toHandle().descendants().toList();
        stack.destroy();
        if (!stack.waitFor(40, TimeUnit.SECONDS)) {
            stack.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    static void result(String key, double value, String unit) {
        System.out.printf(Locale.ROOT, "RESULT %s %.3f %s%n", key, value, unit);
    }

    static JsonNode readJson(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }
}
