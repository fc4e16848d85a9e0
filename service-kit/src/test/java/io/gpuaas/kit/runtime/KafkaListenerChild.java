package io.gpuaas.kit.runtime;

import io.gpuaas.testing.auth.TestJwt;
import io.micronaut.configuration.kafka.annotation.KafkaListener;
import io.micronaut.configuration.kafka.annotation.OffsetReset;
import io.micronaut.configuration.kafka.annotation.OffsetStrategy;
import io.micronaut.configuration.kafka.annotation.Topic;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A micronaut-kafka {@code @KafkaListener} in a process of its own, for {@link WorkConsumerKillIT} to kill with
 * SIGKILL: the same work as {@link WorkConsumerChild}, handed off the way a listener must hand off work that ends later
 * (the method returns, the work goes on). It prints {@code WORK started <offset>} for every record and completes every
 * record's work at once but the one at the offset to hold, which it never completes.
 *
 * <p>Arguments: client properties file, topic, group, offset strategy ({@code SYNC_PER_RECORD}, {@code SYNC} or
 * {@code AUTO}), offset to hold (-1: none).
 */
public final class KafkaListenerChild {

    static final String STRATEGY = "listener-child.strategy";
    static final String TOPIC = "listener-child.topic";
    static final String GROUP = "listener-child.group";
    static final String HOLD = "listener-child.hold";

    private KafkaListenerChild() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, Object> properties = new HashMap<>();
        load(Path.of(args[0]))
                .forEach((k, v) -> properties.put(
                        k.equals(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)
                                ? "gpuaas.kafka.bootstrap-servers"
                                : "gpuaas.kafka.properties." + k,
                        v));
        properties.put(TOPIC, args[1]);
        properties.put(GROUP, args[2]);
        properties.put(STRATEGY, args[3]);
        properties.put(HOLD, Long.parseLong(args[4]));
        // The kit's own beans in the same context need their settings.
        properties.put("gpuaas.security.issuer", TestJwt.ISSUER);
        properties.put("gpuaas.security.audience", TestJwt.AUDIENCE);
        properties.put(
                "gpuaas.security.jwks-path",
                TestJwt.generate()
                        .writeJwks(Files.createTempFile("jwks", ".json"))
                        .toString());
        ApplicationContext context = ApplicationContext.run(properties);
        Runtime.getRuntime().addShutdownHook(new Thread(context::close));
        Thread.currentThread().join();
    }

    private static Map<String, String> load(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        Map<String, String> client = new HashMap<>();
        properties.forEach((k, v) -> client.put((String) k, (String) v));
        return client;
    }

    /** What every listener below does with a record: start its work, return, let the work end when it ends. */
    abstract static class HandOff {

        private final long hold;
        private final List<CompletableFuture<Void>> open = new CopyOnWriteArrayList<>();

        HandOff(long hold) {
            this.hold = hold;
        }

        void handOff(ConsumerRecord<String, String> record) {
            System.out.println("WORK started " + record.offset());
            System.out.flush();
            CompletableFuture<Void> work = new CompletableFuture<>();
            if (record.offset() == hold) {
                open.add(work); // still running when the process is killed
            } else {
                work.complete(null);
            }
        }
    }

    // The library's knobs that matter here: the group and topic of the IT, reading from the beginning, and the
    // broker's least session timeout, so a killed member leaves the group after 6 s instead of 45 (as the kit's child).

    @Requires(property = STRATEGY, value = "SYNC_PER_RECORD")
    @KafkaListener(
            groupId = "${" + GROUP + "}",
            offsetReset = OffsetReset.EARLIEST,
            offsetStrategy = OffsetStrategy.SYNC_PER_RECORD,
            sessionTimeout = "6s",
            heartbeatInterval = "1s")
    static class SyncPerRecord extends HandOff {

        SyncPerRecord(@Value("${" + HOLD + "}") long hold) {
            super(hold);
        }

        @Topic("${" + TOPIC + "}")
        void receive(ConsumerRecord<String, String> record) {
            handOff(record);
        }
    }

    @Requires(property = STRATEGY, value = "SYNC")
    @KafkaListener(
            groupId = "${" + GROUP + "}",
            offsetReset = OffsetReset.EARLIEST,
            offsetStrategy = OffsetStrategy.SYNC,
            sessionTimeout = "6s",
            heartbeatInterval = "1s")
    static class SyncPerPoll extends HandOff {

        SyncPerPoll(@Value("${" + HOLD + "}") long hold) {
            super(hold);
        }

        @Topic("${" + TOPIC + "}")
        void receive(ConsumerRecord<String, String> record) {
            handOff(record);
        }
    }

    @Requires(property = STRATEGY, value = "AUTO")
    @KafkaListener(
            groupId = "${" + GROUP + "}",
            offsetReset = OffsetReset.EARLIEST,
            offsetStrategy = OffsetStrategy.AUTO,
            sessionTimeout = "6s",
            heartbeatInterval = "1s",
            properties = @Property(name = ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, value = "100"))
    static class AutoCommit extends HandOff {

        AutoCommit(@Value("${" + HOLD + "}") long hold) {
            super(hold);
        }

        @Topic("${" + TOPIC + "}")
        void receive(ConsumerRecord<String, String> record) {
            handOff(record);
        }
    }
}
