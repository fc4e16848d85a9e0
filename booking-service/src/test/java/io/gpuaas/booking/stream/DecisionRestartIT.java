package io.gpuaas.booking.stream;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.booking.DeadLetterTopic;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingLedger;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.InMemoryBookingRepository;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The decision processor crashes in the middle of a transaction while commands keep arriving, and a new instance
 * with an empty state directory takes over from the changelog: every command is answered exactly once, no
 * booking is lost or duplicated, capacity holds, and the outcome equals an uninterrupted run of the same commands.
 * Poison commands before the crash and after the restart reach the dead-letter topic through the one publisher both
 * instances share, with every {@code gpuaas_dlq_*} header.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DecisionRestartIT {

    private static final int COMMANDS = 400;
    private static final Instant BASE =
            Instant.now().plus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.DAYS);
    private static final BookingPolicy POLICY = BookingPolicy.DEFAULT;
    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());

    private final PrometheusRegistry registry = new PrometheusRegistry();

    @Test
    void shouldLoseNothingDuplicateNothingAndNeverOverbookWhenTheProcessorCrashesMidStream(KafkaBroker broker)
            throws Exception {
        String prefix = broker.uniquePrefix();
        String appId = broker.uniqueGroupId("restart");
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        // The processor and its dead-letter producer run as booking-service, with exactly its ACLs.
        Map<String, String> service =
                broker.serviceCredentials(BOOKING_SERVICE.userName(), KafkaAccess.acls(BOOKING_SERVICE, prefix, appId));
        List<CreateBooking> commands = commands();
        AtomicInteger decided = new AtomicInteger();
        try (KafkaProducer<byte[], byte[]> deadLetterProducer = producer(broker, service)) {
            // One publisher for both instances, as the decision engine keeps one across restarts of its KafkaStreams.
            DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                    deadLetterProducer, Topics.DEAD_LETTER.name(prefix), "booking-service", registry);
            KafkaStreams first = streams(broker, service, prefix, appId, deadLetters, outcome -> {
                if (decided.incrementAndGet() == COMMANDS / 3) {
                    throw new IllegalStateException("simulated crash after the state changed, before the commit");
                }
            });
            first.start();
            List<Poison> poisons = sendCrashingHalfway(broker, prefix, commands, first);
            first.close(Duration.ofSeconds(10));
            KafkaStreams second = streams(broker, service, prefix, appId, deadLetters, outcome -> {});
            second.start();
            try {
                assertEveryCommandAnsweredOnceAsWithoutCrash(readAnswers(broker, prefix, commands.size()), commands);
                assertDeadLettered(broker, prefix, poisons);
            } finally {
                second.close(Duration.ofSeconds(10));
            }
        }
    }

    /** Sends every command and two poisons; halfway, waits for {@code first} to have crashed. */
    private static List<Poison> sendCrashingHalfway(
            KafkaBroker broker, String prefix, List<CreateBooking> commands, KafkaStreams first) throws Exception {
        List<Poison> poisons = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(broker, Map.of())) {
            for (int i = 0; i < commands.size(); i++) {
                producer.send(record(prefix, commands.get(i).pool(), commands.get(i)));
                if (i == 10 || i == COMMANDS - 10) {
                    poisons.add(poison(producer, prefix, i == 10));
                }
                if (i == COMMANDS / 2) {
                    producer.flush();
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> first.state() == KafkaStreams.State.ERROR
                                    || first.state() == KafkaStreams.State.NOT_RUNNING);
                }
            }
        }
        return poisons;
    }

    private static void assertEveryCommandAnsweredOnceAsWithoutCrash(
            Map<String, List<BookingEvent>> answers, List<CreateBooking> commands) {
        assertThat(answers).hasSize(COMMANDS);
        assertThat(answers.values()).allSatisfy(list -> assertThat(list).hasSize(1));
        Set<String> confirmedRequests = answers.entrySet().stream()
                .filter(e -> e.getValue().getFirst() instanceof BookingConfirmed)
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        assertThat(confirmedRequests).isEqualTo(uninterruptedRun(commands));
        List<Booking> confirmed = answers.values().stream()
                .map(List::getFirst)
                .filter(BookingConfirmed.class::isInstance)
                .map(e -> ((BookingConfirmed) e).booking())
                .toList();
        assertThat(confirmed).extracting(Booking::id).doesNotHaveDuplicates();
        assertNoOverbooking(confirmed);
    }

    /** A command that cannot be read (before the crash) or is keyed by another pool (after the restart). */
    private record Poison(RecordMetadata sent, byte[] value, String reason) {
        String where() {
            return DeadLetterTopic.where(sent.topic(), sent.partition(), sent.offset());
        }
    }

    private static Poison poison(KafkaProducer<byte[], byte[]> producer, String prefix, boolean garbage)
            throws Exception {
        if (garbage) {
            byte[] value = {0, (byte) 0xff, 'p', 'o', 'i', 's', 'o', 'n'};
            RecordMetadata sent = producer.send(
                            new ProducerRecord<>(Topics.BOOKING_COMMANDS.name(prefix), "h200".getBytes(UTF_8), value))
                    .get();
            return new Poison(sent, value, "MISSING_TYPE");
        }
        CreateBooking misrouted = new CreateBooking(
                UUID.randomUUID().toString(),
                null,
                new Caller("u", "team-a", false),
                "h200",
                UUID.randomUUID().toString(),
                "team-a",
                1,
                BASE,
                BASE.plus(Duration.ofHours(1)),
                null,
                Instant.now());
        ProducerRecord<byte[], byte[]> record = record(prefix, "h200-mig-1g.18gb", misrouted);
        return new Poison(producer.send(record).get(), record.value(), "InvalidCommandException");
    }

    /** Each poison reaches the dead-letter topic (at least once: a crash may repeat it) with every gpuaas_dlq_ header. */
    private void assertDeadLettered(KafkaBroker broker, String prefix, List<Poison> poisons) {
        Map<String, ConsumerRecord<byte[], byte[]>> letters = DeadLetterTopic.awaitLetters(
                broker,
                Topics.DEAD_LETTER.name(prefix),
                poisons.stream().map(Poison::where).toList());
        for (Poison poison : poisons) {
            ConsumerRecord<byte[], byte[]> letter = letters.get(poison.where());
            assertThat(letter.value()).isEqualTo(poison.value());
            DeadLetterTopic.assertHeaders(
                    letter.headers(),
                    poison.reason(),
                    poison.sent().topic(),
                    poison.sent().partition(),
                    poison.sent().offset(),
                    poison.sent().timestamp());
            assertThat(registry.scrape().stream()
                            .filter(m -> m.getMetadata().getName().equals("gpuaas_dead_letter_records"))
                            .flatMap(m -> m.getDataPoints().stream())
                            .filter(d -> poison.reason().equals(d.getLabels().get("reason"))))
                    .as("gpuaas_dead_letter_records_total{reason=%s}", poison.reason())
                    .isNotEmpty();
        }
    }

    private static KafkaStreams streams(
            KafkaBroker broker,
            Map<String, String> service,
            String prefix,
            String appId,
            DeadLetterPublisher deadLetters,
            java.util.function.Consumer<DecisionOutcome> observer)
            throws Exception {
        BookingDecider decider = new BookingDecider(POOLS, POLICY);
        Properties props = new Properties();
        props.putAll(service);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // The service's own engine settings (commit interval, linger, retry backoff): the guarantees hold with them.
        props.putAll(EngineTuning.defaults().streamsProperties());
        // A fresh directory every time: the new instance can only know the past from the changelogs.
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("restart-state").toString());
        props.putAll(BookingTopology.errorHandling(deadLetters));
        KafkaStreams streams = new KafkaStreams(
                BookingTopology.build(prefix, decider, Duration.ofMillis(200), Duration.ofDays(7), observer::accept),
                props);
        streams.setUncaughtExceptionHandler(e -> StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        return streams;
    }

    private static List<CreateBooking> commands() {
        Random random = new Random(42);
        List<CreateBooking> out = new ArrayList<>();
        String[] pools = {"h200", "h200-mig-3g.71gb"};
        for (int i = 0; i < COMMANDS; i++) {
            Instant start = BASE.plus(Duration.ofMinutes(15L * random.nextInt(48)));
            Instant end = start.plus(Duration.ofMinutes(15L * (1 + random.nextInt(16))));
            Caller caller = new Caller("u" + i, i % 2 == 0 ? "team-a" : "team-b", false);
            out.add(new CreateBooking(
                    UUID.randomUUID().toString(),
                    null,
                    caller,
                    pools[i % 2],
                    UUID.randomUUID().toString(),
                    caller.tenant(),
                    1 + random.nextInt(3),
                    start,
                    end,
                    null,
                    Instant.now()));
        }
        return out;
    }

    /** The same commands, per pool in order, through the pure decider: what an uncrashed writer decides. */
    private static Set<String> uninterruptedRun(List<CreateBooking> commands) {
        BookingDecider decider = new BookingDecider(POOLS, POLICY);
        BookingLedger ledger = new BookingLedger(new InMemoryBookingRepository());
        Set<String> confirmed = new TreeSet<>();
        for (CreateBooking command : commands) {
            var decision = decider.decide(command, ledger, Instant.now());
            ledger.apply(decision);
            if (decision.events().getFirst() instanceof BookingConfirmed) {
                confirmed.add(command.requestId());
            }
        }
        return confirmed;
    }

    private static void assertNoOverbooking(List<Booking> confirmed) {
        for (Booking b : confirmed) {
            int capacity = POOLS.find(b.pool()).orElseThrow().capacity();
            int atStart = confirmed.stream()
                    .filter(o -> o.pool().equals(b.pool()) && o.activeAt(b.start()))
                    .mapToInt(Booking::quantity)
                    .sum();
            assertThat(atStart).as("units of %s at %s", b.pool(), b.start()).isLessThanOrEqualTo(capacity);
        }
    }

    private static Map<String, List<BookingEvent>> readAnswers(KafkaBroker broker, String prefix, int expected) {
        Map<String, Object> config = broker.clientProperties();
        config.put("isolation.level", "read_committed");
        config.put("auto.offset.reset", "earliest");
        config.put("group.id", broker.uniqueGroupId("restart-reader"));
        Map<String, List<BookingEvent>> answers = new HashMap<>();
        try (KafkaConsumer<String, BookingEvent> consumer = new KafkaConsumer<>(
                config,
                new StringDeserializer(),
                Topics.BOOKING_EVENTS.valueSerde().deserializer())) {
            consumer.subscribe(List.of(Topics.BOOKING_EVENTS.name(prefix)));
            long deadline = System.currentTimeMillis() + 120_000;
            long quietSince = 0;
            while (System.currentTimeMillis() < deadline) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, BookingEvent> r : records) {
                    String requestId = requestIdOf(r.value());
                    if (requestId != null) {
                        answers.computeIfAbsent(requestId, k -> new ArrayList<>())
                                .add(r.value());
                    }
                }
                // Keep reading a little after the last answer so duplicates, if any, would show up.
                if (answers.size() >= expected) {
                    quietSince = quietSince == 0 ? System.currentTimeMillis() : quietSince;
                    if (System.currentTimeMillis() - quietSince > 2_000) {
                        break;
                    }
                }
            }
        }
        return answers;
    }

    private static String requestIdOf(BookingEvent event) {
        return switch (event) {
            case BookingConfirmed e -> e.requestId();
            case BookingEvent.BookingRejected e -> e.requestId();
            default -> null;
        };
    }

    /** {@code command} as the service's CommandPublisher writes it (CloudEvents headers), keyed by {@code key}. */
    private static ProducerRecord<byte[], byte[]> record(String prefix, String key, BookingCommand command) {
        String topic = Topics.BOOKING_COMMANDS.name(prefix);
        RecordHeaders headers = new RecordHeaders();
        byte[] value = Topics.BOOKING_COMMANDS.valueSerde().serializer().serialize(topic, headers, command);
        return new ProducerRecord<>(topic, null, key.getBytes(UTF_8), value, headers);
    }

    /** A producer of the super user, or of the user whose SASL settings {@code credentials} holds when not empty. */
    private static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker, Map<String, String> credentials) {
        Map<String, Object> config = broker.clientProperties();
        config.putAll(credentials);
        config.put("enable.idempotence", true);
        config.put("acks", "all");
        // The commands must all arrive for the assertions to mean anything. On a starved machine a request can
        // time out after the broker appended it; with several batches in flight its retry then arrives behind
        // newer ones and is refused (OutOfOrderSequence), losing commands before the processor ever sees them.
        config.put("max.in.flight.requests.per.connection", 1);
        config.put("request.timeout.ms", 120_000);
        config.put("delivery.timeout.ms", 300_000);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
