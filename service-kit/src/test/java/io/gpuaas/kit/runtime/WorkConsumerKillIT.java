package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.Topics;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A work consumer killed with SIGKILL in its own JVM, with work finished out of order (offsets 4..9 done, 3 not),
 * resumes in a new process at its first unapplied offset: it redoes 3 and skips nothing.
 */
@ExtendWith(KafkaBrokerExtension.class)
class WorkConsumerKillIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int RECORDS = 10;
    private static final long HELD = 3;

    private KafkaBroker broker;
    private String prefix;
    private String topic;
    private String group;
    private Path clientProperties;
    private Admin admin;
    private Process running;

    @TempDir
    Path dir;

    @BeforeEach
    void setUp() throws IOException {
        prefix = broker.uniquePrefix();
        topic = prefix + "work";
        group = broker.uniqueGroupId("work-kill");
        broker.createTopics(1, topic, Topics.DEAD_LETTER.name(prefix));
        clientProperties = Files.createFile(
                dir.resolve("client.properties"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Properties properties = new Properties();
        broker.clientProperties().forEach((k, v) -> properties.setProperty(k, String.valueOf(v)));
        try (OutputStream out = Files.newOutputStream(clientProperties)) {
            properties.store(out, null);
        }
        admin = broker.admin();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (running != null) {
            running.destroyForcibly();
            running.waitFor(30, TimeUnit.SECONDS);
        }
        admin.close();
    }

    @Test
    void shouldRedoTheFirstUnfinishedRecordAndSkipNothingWhenKilledWithLaterWorkDone() throws Exception {
        produce();

        Path firstLog = dir.resolve("first.log");
        running = launch(HELD, firstLog);
        await().atMost(WAIT)
                .untilAsserted(
                        () -> assertThat(committed()).as("3 open, 4..9 done").hasValueSatisfying(c -> {
                            assertThat(c.offset()).isEqualTo(HELD);
                            assertThat(c.metadata()).isEqualTo("v1;next=10;open=0");
                        }));
        assertThat(started(firstLog)).containsExactlyElementsOf(range(0, RECORDS));

        running.destroyForcibly();
        assertThat(running.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(running.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);

        Path secondLog = dir.resolve("second.log");
        running = launch(-1, secondLog);
        await().atMost(WAIT).untilAsserted(() -> assertThat(committed())
                .hasValueSatisfying(c -> assertThat(c.offset()).isEqualTo(RECORDS)));

        assertThat(started(secondLog))
                .as("the new process redoes the record left open, and only it")
                .containsExactly(HELD);
    }

    private void produce() throws Exception {
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(broker.clientProperties(), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k", Integer.toString(i)))
                        .get();
            }
        }
    }

    private Optional<OffsetAndMetadata> committed() throws Exception {
        return Optional.ofNullable(admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS)
                .get(new TopicPartition(topic, 0)));
    }

    private Process launch(long hold, Path log) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(
                        java.toString(),
                        "-Xmx256m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkConsumerChild.class.getName(),
                        clientProperties.toString(),
                        prefix,
                        topic,
                        group,
                        Long.toString(hold))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static List<Long> started(Path log) throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("WORK started "))
                .map(line -> Long.parseLong(line.substring("WORK started ".length())))
                .toList();
    }

    private static List<Long> range(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> (long) i).toList();
    }
}
