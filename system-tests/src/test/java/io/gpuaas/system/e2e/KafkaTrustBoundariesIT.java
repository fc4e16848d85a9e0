package io.gpuaas.system.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.system.e2e.Kcat.KafkaRecord;
import io.gpuaas.testing.kafka.KafkaCredentials;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #14's first trust boundary, against the local stack as it runs (authenticated Kafka, ACLs from
 * {@link KafkaAccess}, booking-service deciding): a fact is trusted because of who wrote it, so the broker must refuse
 * everyone but a topic's owner, and a booking command from anyone but booking-service must never be decided.
 */
class KafkaTrustBoundariesIT {

    private static final String COMMANDS = Topics.BOOKING_COMMANDS.name(Topics.DEFAULT_PREFIX);
    private static final String EVENTS = Topics.BOOKING_EVENTS.name(Topics.DEFAULT_PREFIX);
    private static final String SAMPLES = Topics.GPU_SAMPLES.name(Topics.DEFAULT_PREFIX);

    private static E2eStack stack;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Kcat.available(), "needs Debian's kcat (installed by .ci/run)");
        stack = E2eStack.start(List.of("--only", "booking-service"));
        // Every topic holds something for the SRE to read: booking-service's three a decided command, every other one
        // a record from a principal allowed to write it. booking-service reads one of those, kueue-workloads, and
        // dead-letters the record; nothing else running reads them.
        awaitDecision(sendCommand(KafkaPrincipal.BOOKING_SERVICE, "seed"));
        Set<TopicSpec<?, ?>> decided = Set.of(Topics.BOOKING_COMMANDS, Topics.BOOKING_EVENTS, Topics.BOOKINGS);
        for (TopicSpec<?, ?> topic : Topics.all()) {
            if (!decided.contains(topic)) {
                KafkaPrincipal writer =
                        KafkaAccess.writers(topic).stream().sorted().findFirst().orElseThrow();
                write(writer, topic.name(Topics.DEFAULT_PREFIX)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldRefuseAClientWhenItHasNoCredentialsOrAWrongPassword() {
        Map<String, Object> anonymous = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                8000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                4000);
        try (Admin admin = Admin.create(anonymous)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .as("metadata for a client without credentials")
                    .isInstanceOf(ExecutionException.class);
        }
        Map<String, Object> wrongPassword = stack.kafka().clientProperties(KafkaPrincipal.SRE);
        wrongPassword.putAll(KafkaCredentials.scram(KafkaPrincipal.SRE.userName(), "not-the-password"));
        wrongPassword.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 8000);
        wrongPassword.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4000);
        try (Admin admin = Admin.create(wrongPassword)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(20, TimeUnit.SECONDS))
                    .as("metadata for the SRE user with a wrong password")
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void shouldLetTheSreReadEveryTopicWithKcatWhenUsingItsConfigFile() throws Exception {
        for (TopicSpec<?, ?> topic : Topics.all()) {
            List<KafkaRecord> records = Kcat.readAll(stack.kcatConfig(), topic.name(Topics.DEFAULT_PREFIX));
            assertThat(records)
                    .as(
                            "records of %s read by kcat as %s",
                            topic.name(Topics.DEFAULT_PREFIX), KafkaPrincipal.SRE.userName())
                    .isNotEmpty();
        }
    }

    @Test
    void shouldRefuseKcatWhenTheSreReadsATopicOutsideTheTable() throws Exception {
        // booking-service's decision store changelog holds every booking, but it is the decider's internal state, not
        // a contract topic: the same kcat login that reads every topic above is refused here, so that check can fail.
        String changelog;
        try (Admin admin = Admin.create(stack.kafka().adminProperties())) {
            changelog = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(KafkaPrincipal.BOOKING_SERVICE.streamsApplicationId() + "-"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("booking-service has no internal topic"));
        }
        assertThatThrownBy(() -> Kcat.readAll(stack.kcatConfig(), changelog))
                .as("kcat read of %s as the SRE", changelog)
                .hasMessageContaining("authorization failed");
    }

    @Test
    void shouldRefuseEveryWriteOfTheSreWhenItProducesToAnyTopic() throws Exception {
        for (TopicSpec<?, ?> topic : Topics.all()) {
            assertRefused(KafkaPrincipal.SRE, topic.name(Topics.DEFAULT_PREFIX));
        }
        Process kcat = new ProcessBuilder(
                        Kcat.BINARY.toString(), "-F", stack.kcatConfig().toString(), "-P", "-t", SAMPLES)
                .redirectErrorStream(true)
                .start();
        kcat.getOutputStream().write("{\"forged\":true}\n".getBytes(StandardCharsets.UTF_8));
        kcat.getOutputStream().close();
        assertThat(kcat.waitFor(60, TimeUnit.SECONDS)).as("kcat -P returned").isTrue();
        assertThat(new String(kcat.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .as("kcat -P to %s as the SRE", SAMPLES)
                .containsIgnoringCase("authorization failed");
    }

    @Test
    void shouldRefuseBookingServiceWhenItWritesGpuSamples() throws Exception {
        assertRefused(KafkaPrincipal.BOOKING_SERVICE, SAMPLES);
    }

    @Test
    void shouldNeverDecideABookingCommandWhenAnyoneButBookingServiceWritesIt() throws Exception {
        Set<KafkaPrincipal> others = EnumSet.complementOf(EnumSet.of(KafkaPrincipal.BOOKING_SERVICE));
        List<String> forged = new ArrayList<>();
        for (KafkaPrincipal principal : others) {
            String requestId = "forged-by-" + principal.userName() + "-" + UUID.randomUUID();
            forged.add(requestId);
            assertThatThrownBy(() -> send(principal, command(requestId)).get(30, TimeUnit.SECONDS))
                    .as("booking command written as %s", principal.userName())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        // Same pool, so the same partition: once the owner's command behind them is decided, any forged command
        // that had reached the topic would have been decided before it.
        String control = sendCommand(KafkaPrincipal.BOOKING_SERVICE, "control");
        awaitDecision(control);

        List<KafkaRecord> commands = Kcat.readAll(stack.kcatConfig(), COMMANDS);
        List<KafkaRecord> decisions = Kcat.readAll(stack.kcatConfig(), EVENTS);
        assertThat(requestIds(commands))
                .as("commands on %s", COMMANDS)
                .contains(control)
                .doesNotContainAnyElementsOf(forged);
        assertThat(requestIds(decisions)).as("decisions on %s", EVENTS).doesNotContainAnyElementsOf(forged);
    }

    private static void assertRefused(KafkaPrincipal principal, String topic) {
        assertThatThrownBy(() -> write(principal, topic).get(30, TimeUnit.SECONDS))
                .as("write to %s as %s", topic, principal.userName())
                .hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    /** A record with a JSON body, written as {@code principal}; the future fails when the broker refuses it. */
    private static Future<?> write(KafkaPrincipal principal, String topic) {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerConfig(principal), new ByteArraySerializer(), new ByteArraySerializer())) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                    topic,
                    "trust-boundaries".getBytes(StandardCharsets.UTF_8),
                    ("{\"writtenBy\":\"" + principal.userName() + "\"}").getBytes(StandardCharsets.UTF_8));
            record.headers()
                    .add("ce_source", ("/trust-boundaries/" + principal.userName()).getBytes(StandardCharsets.UTF_8));
            var sent = producer.send(record);
            producer.flush();
            return sent;
        }
    }

    /** A well-formed command for the 1g.18gb pool as team-a, written as {@code principal}. */
    private static Future<?> send(KafkaPrincipal principal, BookingCommand command) {
        try (KafkaProducer<String, BookingCommand> producer = new KafkaProducer<>(
                producerConfig(principal),
                Topics.BOOKING_COMMANDS.keySerde().serializer(),
                Topics.BOOKING_COMMANDS.valueSerde().serializer())) {
            var sent = producer.send(new ProducerRecord<>(COMMANDS, command.pool(), command));
            producer.flush();
            return sent;
        }
    }

    private static String sendCommand(KafkaPrincipal principal, String label) throws Exception {
        String requestId = label + "-" + UUID.randomUUID();
        send(principal, command(requestId)).get(30, TimeUnit.SECONDS);
        return requestId;
    }

    private static BookingCommand command(String requestId) {
        Instant start = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
        return new CreateBooking(
                requestId,
                null,
                new Caller("team-a-user", "team-a", false),
                ClusterView.FLAVOR,
                UUID.randomUUID().toString(),
                "team-a",
                1,
                start,
                start.plus(1, ChronoUnit.HOURS),
                "trust boundaries",
                Instant.now());
    }

    /**
     * Idempotence off: an idempotent producer first asks for a producer id, which a principal without any write grant
     * (the SRE) is refused cluster-wide; the broker's answer must be about the topic itself.
     */
    private static Map<String, Object> producerConfig(KafkaPrincipal principal) {
        Map<String, Object> config = stack.kafka().clientProperties(principal);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        return config;
    }

    /** Waits until booking-service has confirmed or rejected the command {@code requestId}. */
    private static void awaitDecision(String requestId) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(requestIds(Kcat.readAll(stack.kcatConfig(), EVENTS)))
                        .as("decisions on %s", EVENTS)
                        .contains(requestId));
    }

    private static Set<String> requestIds(List<KafkaRecord> records) {
        return records.stream()
                .map(r -> r.body().path("requestId").asText(null))
                .filter(id -> id != null)
                .collect(Collectors.toSet());
    }
}
