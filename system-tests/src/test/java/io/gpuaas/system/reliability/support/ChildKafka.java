package io.gpuaas.system.reliability.support;

import io.gpuaas.testing.kafka.BrokerDefaults;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft broker ({@code kafka.Kafka}) in its own JVM, on a fixed port and a fixed log directory, so it
 * can be killed and started again with its data: the in-process test kit formats a fresh directory on every start
 * and cannot restart. The classpath is this test JVM's own (kafka_2.13 comes with test-support).
 *
 * <p>Its security is test-support's ({@link BrokerDefaults#security}): SASL on both listeners, the super user with
 * PLAIN, every other user with SCRAM-SHA-512, the StandardAuthorizer. Users and ACLs created through the Admin API
 * live in the KRaft metadata log, so they survive a restart like the records do.
 */
public final class ChildKafka implements KafkaBroker, AutoCloseable {

    private static final String LISTENER = "BROKER";

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final Path log;
    private final String adminPassword = KafkaCredentials.randomPassword();
    private Process process;
    private int starts;

    private ChildKafka(Path dir, int port, int controllerPort) {
        this.dir = dir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.log = dir.resolve("broker.log");
    }

    /** Formats the log directory once and starts the broker; waits until it answers. */
    public static ChildKafka start(Path dir, Duration timeout) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        ChildKafka kafka = new ChildKafka(dir, Ports.free(), Ports.free());
        Path config = kafka.writeConfig();
        Process format = new ProcessBuilder(kafka.command(
                        "kafka.tools.StorageTool",
                        "format",
                        "-t",
                        Uuid.randomUuid().toString(),
                        "-c",
                        config.toString(),
                        "--ignore-formatted"))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("format.log").toFile())
                .start();
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            throw new IllegalStateException(
                    "kafka storage format failed: " + Files.readString(dir.resolve("format.log")));
        }
        kafka.startProcess(timeout);
        return kafka;
    }

    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    @Override
    public String adminPassword() {
        return adminPassword;
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL: no controlled shutdown, the log is recovered on the next start. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the broker again on the same port and log directory. */
    public void restart(Duration timeout) throws IOException, InterruptedException {
        if (alive()) {
            kill();
        }
        startProcess(timeout);
    }

    private void startProcess(Duration timeout) throws IOException, InterruptedException {
        starts++;
        ProcessBuilder builder = new ProcessBuilder(
                        command("kafka.Kafka", dir.resolve("server.properties").toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = builder.start();
        awaitReady(timeout);
    }

    private void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> config = clientProperties();
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("kafka broker exited with " + process.exitValue() + ", see " + log);
            }
            try (Admin admin = Admin.create(config)) {
                if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (Exception notYet) {
                // not accepting clients yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "kafka broker not ready after " + timeout.toSeconds() + " s, see " + log);
            }
            Thread.sleep(250);
        }
    }

    /** The server.properties holds the super user's password: only this user may read it. */
    private Path writeConfig() {
        Map<String, String> p = new LinkedHashMap<>(BrokerDefaults.singleNode(0));
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", LISTENER + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", LISTENER + "://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", LISTENER);
        p.put("listener.security.protocol.map", LISTENER + ":SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT");
        p.put("log.dirs", dir.resolve("data").toString());
        p.putAll(BrokerDefaults.security(adminPassword, List.of(LISTENER)));
        String text = p.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().replace("\\", "\\\\"))
                .collect(Collectors.joining("\n", "", "\n"));
        Path file = dir.resolve("server.properties");
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> command(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xmx512m",
                "-Xss512k",
                "--enable-native-access=ALL-UNNAMED",
                "-Dlogback.configurationFile=" + logbackConfig(),
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        command.addAll(List.of(args));
        return command;
    }

    private Path logbackConfig() {
        Path file = dir.resolve("logback-broker.xml");
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, """
                        <configuration>
                          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{30} - %msg%n</pattern></encoder>
                          </appender>
                          <root level="WARN"><appender-ref ref="OUT"/></root>
                          <logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                          <logger name="kafka.server.BrokerServer" level="INFO"/>
                        </configuration>
                        """);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int starts() {
        return starts;
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
