package io.gpuaas.system.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft broker ({@code kafka.Kafka}) in its own JVM, on a fixed port and a fixed log directory, so it
 * can be killed and started again with its data: the in-process test kit formats a fresh directory on every start
 * and cannot restart. The classpath is this test JVM's own (kafka_2.13 comes with test-support).
 */
public final class ChildKafka implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final Path log;
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
        Process format = new ProcessBuilder(kafka.command("kafka.tools.StorageTool", "format", "-t",
                Uuid.randomUuid().toString(), "-c", config.toString(), "--ignore-formatted"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("format.log").toFile()).start();
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            throw new IllegalStateException("kafka storage format failed: " + Files.readString(dir.resolve("format.log")));
        }
        kafka.startProcess(timeout);
        return kafka;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
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
        ProcessBuilder builder = new ProcessBuilder(command("kafka.Kafka", dir.resolve("server.properties").toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = builder.start();
        awaitReady(timeout);
    }

    private void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> config = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
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
                throw new IllegalStateException("kafka broker not ready after " + timeout.toSeconds() + " s, see " + log);
            }
            Thread.sleep(250);
        }
    }

    private Path writeConfig() {
        String properties = String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=5",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=5",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "default.replication.factor=1",
                "min.insync.replicas=1",
                "num.partitions=1",
                "group.initial.rebalance.delay.ms=0",
                "num.network.threads=2",
                "num.io.threads=2",
                "background.threads=2",
                "num.recovery.threads.per.data.dir=1",
                "log.cleaner.threads=1",
                "log.cleaner.dedupe.buffer.size=2097152",
                "log.index.size.max.bytes=1048576",
                "log.segment.bytes=67108864",
                "") ;
        try {
            return Files.writeString(dir.resolve("server.properties"), properties);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> command(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m", "-Xss512k",
                "--enable-native-access=ALL-UNNAMED", "-Dlogback.configurationFile=" + logbackConfig(),
                "-cp", System.getProperty("java.class.path"), mainClass));
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
