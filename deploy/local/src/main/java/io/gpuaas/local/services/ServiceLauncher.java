package io.gpuaas.local.services;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each replica of a service in its own JVM, as it runs in its own pod: classpath from the module's
 * {@code target/classes} and {@code target/classpath.txt}, configuration as system properties, output to
 * {@code logs/<replica name>.log}.
 * Child JVMs use C1 only and a small heap: on two shared cores, four services start much sooner that way. (A
 * class-data archive was tried and dropped: it only pays from the second start, and writing it at exit under load
 * outlasted the shutdown grace period.)
 */
public final class ServiceLauncher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceLauncher.class);
    /** Where every service of the local stack listens. */
    public static final String LOOPBACK = "127.0.0.1";

    static final List<String> JVM_FLAGS = List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Xss512k",
            "-Xms64m",
            "-Xmx384m",
            "-XX:MaxMetaspaceSize=192m",
            "-Dfile.encoding=UTF-8",
            // zstd-jni (Kafka compression) loads a native library; say so instead of a warning in every log.
            "--enable-native-access=ALL-UNNAMED");

    /**
     * A started replica of a service.
     *
     * @param replica which service and which of its replicas
     * @param port    its HTTP port
     * @param process its JVM
     * @param log     its log file
     */
    public record Running(ServiceReplica replica, int port, Process process, Path log) {

        public ServiceSpec spec() {
            return replica.spec();
        }

        /** {@link ServiceReplica#name()}: the service's name, with {@code -2}, {@code -3}… for later replicas. */
        public String name() {
            return replica.name();
        }

        public String url() {
            return "http://127.0.0.1:" + port;
        }
    }

    private final Path repoRoot;
    private final Path logDir;
    private final String java;
    private final List<Running> running = new ArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    public ServiceLauncher(Path repoRoot, Path logDir, String java) {
        this.repoRoot = repoRoot;
        this.logDir = logDir;
        this.java = java;
    }

    /** Whether the module's main class and runtime classpath have been built. */
    public boolean built(ServiceSpec spec) {
        Path target = repoRoot.resolve(spec.module()).resolve("target");
        Path mainClass = target.resolve("classes").resolve(spec.mainClass().replace('.', '/') + ".class");
        return Files.isRegularFile(mainClass) && Files.isRegularFile(target.resolve("classpath.txt"));
    }

    /** Starts one replica; its log is {@code <replica name>.log}, its environment {@code env}. */
    public Running start(ServiceReplica replica, int port, Map<String, String> properties, Map<String, String> env)
            throws IOException {
        ServiceSpec spec = replica.spec();
        if (!built(spec)) {
            throw new IllegalStateException(
                    spec.module() + " is not built (no " + spec.mainClass()
                            + " in target/classes or no target/classpath.txt):"
                            + " run ./mvnw -B install -DskipTests from the repository root, or start with --only/--no-services");
        }
        Path target = repoRoot.resolve(spec.module()).resolve("target");
        String classpath = target.resolve("classes")
                + File.pathSeparator
                + Files.readString(target.resolve("classpath.txt")).trim();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(JVM_FLAGS);
        if (Runtime.version().feature() >= 24) {
            // Kafka and Netty still use sun.misc.Unsafe; without this every service log opens with warnings.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-Dmicronaut.server.port=" + port);
        // Loopback only: on a shared machine nobody else should reach the stack (a cluster's pods bind every
        // interface, as their probes and Service need).
        command.add("-Dmicronaut.server.host=" + LOOPBACK);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-cp");
        command.add(classpath);
        command.add(spec.mainClass());
        Files.createDirectories(logDir);
        Path log = logDir.resolve(replica.name() + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(repoRoot.toFile());
        builder.environment().putAll(env);
        Running service = new Running(replica, port, builder.start(), log);
        running.add(service);
        LOG.info(
                "{} starting on port {} (pid {}, log {})",
                replica.name(),
                port,
                service.process().pid(),
                log);
        return service;
    }

    /** Waits until every started replica answers /health with UP; fails fast when one of them exits. */
    public void awaitHealthy(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<String> healthy = new HashSet<>();
        while (healthy.size() < running.size()) {
            for (Running service : running) {
                if (healthy.contains(service.name())) {
                    continue;
                }
                if (!service.process().isAlive()) {
                    throw new IllegalStateException(service.name() + " exited with code "
                            + service.process().exitValue() + "; last lines of " + service.log() + ":\n"
                            + tail(service.log()));
                }
                if (up(service)) {
                    healthy.add(service.name());
                    LOG.info("{} is UP", service.name());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not UP after " + timeout.toSeconds() + " s: "
                        + running.stream()
                                .map(Running::name)
                                .filter(n -> !healthy.contains(n))
                                .toList() + " (see their logs)");
            }
            Thread.sleep(250);
        }
    }

    public List<Running> running() {
        return List.copyOf(running);
    }

    private boolean up(Running service) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(service.url() + "/health"))
                            .timeout(Duration.ofSeconds(2))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"UP\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ")";
        }
    }

    /** SIGTERM to every service, then up to 15 s for graceful shutdown before killing what is left. */
    @Override
    public void close() {
        running.forEach(r -> r.process().destroy());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        for (Running service : running) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!service.process().waitFor(left, TimeUnit.NANOSECONDS)) {
                    LOG.warn("{} did not stop in time, killing it", service.name());
                    service.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                service.process().destroyForcibly();
            }
        }
        running.clear();
    }
}
