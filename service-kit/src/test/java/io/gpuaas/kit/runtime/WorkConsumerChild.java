package io.gpuaas.kit.runtime;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.Topics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A work consumer in a process of its own, for {@link WorkConsumerKillIT} to kill with SIGKILL. It prints
 * {@code WORK started <offset>} for every record handed to its work, and completes every record at once but the one
 * at the offset to hold, which it never completes: later records finish before an earlier one.
 *
 * <p>Arguments: client properties file, topic prefix, topic, group, offset to hold (-1: none).
 */
public final class WorkConsumerChild {

    private WorkConsumerChild() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, Object> client = load(Path.of(args[0]));
        String prefix = args[1];
        String topic = args[2];
        String group = args[3];
        long hold = Long.parseLong(args[4]);
        KafkaProducer<byte[], byte[]> dlq =
                new KafkaProducer<>(client, new ByteArraySerializer(), new ByteArraySerializer());
        DeadLetterPublisher deadLetters =
                new DeadLetterPublisher(dlq, Topics.DEAD_LETTER.name(prefix), group, new PrometheusRegistry());
        WorkConsumer<Integer, Void> work = WorkConsumer.<Integer, Void>builder(
                        "work-child",
                        () -> consumer(client, group),
                        topic,
                        EventReader.of(FakeLog.topic(topic, 1, false), deadLetters),
                        deadLetters,
                        (record, value) -> {
                            System.out.println("WORK started " + record.offset());
                            System.out.flush();
                            return record.offset() == hold
                                    ? new CompletableFuture<>()
                                    : CompletableFuture.completedFuture(null);
                        })
                .commitInterval(Duration.ofMillis(50))
                .build();
        work.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> work.stop(Duration.ofSeconds(2))));
        Thread.currentThread().join();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> client, String group) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // The broker's least: a killed member leaves the group after 6 s instead of 45.
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static Map<String, Object> load(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        Map<String, Object> client = new HashMap<>();
        properties.forEach((k, v) -> client.put((String) k, v));
        return client;
    }
}
