package io.gpuaas.booking.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.LifecycleRules;
import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decisions and the lifecycle as one topology (TopologyTestDriver, wall clock driven by the test): a book-now
 * becomes ACTIVE, the lifecycle reads it back from {@code bookings}, warns, sends the release, and the decider
 * releases it; a Workload on the global store keeps it; ending-soon notices at their leads.
 */
class LifecycleTopologyTest {

    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Caller TEAM_A = new Caller("alice", "team-a", false);
    private static final String MIG = "h200-mig-1g.18gb";
    private static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, Duration.ofSeconds(60)),
            new Pool(MIG, MIG, "nvidia.com/mig-1g.18gb", 14, "NVIDIA H200", "1g.18gb", Duration.ZERO)));

    @TempDir
    Path stateDir;

    private final MockProducer<byte[], byte[]> deadLetterProducer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private TopologyTestDriver driver;
    private TestInputTopic<String, BookingCommand> commands;
    private TestInputTopic<byte[], byte[]> workloads;
    private TestOutputTopic<String, BookingEvent> events;
    private TestOutputTopic<String, Notice> notices;

    @BeforeEach
    void start() {
        BookingPolicy policy = new BookingPolicy(
                Duration.ofDays(1), Duration.ofDays(30), Duration.ofSeconds(1), 1.0, Duration.ofMinutes(1));
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                deadLetterProducer, "gpuaas.dead-letter", "booking-service", new PrometheusRegistry());
        Topology topology = BookingTopology.build(
                "gpuaas.", new BookingDecider(POOLS, policy), Duration.ofMillis(200), Duration.ofDays(7), o -> {});
        LifecycleRules rules =
                new LifecycleRules(List.of(Duration.ofSeconds(30), Duration.ofSeconds(10)), POOLS, Duration.ZERO);
        LifecycleTopology.addTo(
                topology,
                "gpuaas.",
                rules,
                new WorkloadCells(POOLS),
                Duration.ofSeconds(1),
                deadLetters,
                LifecycleOutcomes.IGNORED);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "lifecycle-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.putAll(BookingTopology.errorHandling(deadLetters));
        driver = new TopologyTestDriver(topology, props, START);
        commands = driver.createInputTopic(
                "gpuaas.booking-commands",
                Serdes.String().serializer(),
                Topics.BOOKING_COMMANDS.valueSerde().serializer());
        workloads = driver.createInputTopic(
                "gpuaas.kueue-workloads",
                Serdes.ByteArray().serializer(),
                Serdes.ByteArray().serializer());
        events = driver.createOutputTopic(
                "gpuaas.booking-events",
                Serdes.String().deserializer(),
                Topics.BOOKING_EVENTS.valueSerde().deserializer());
        notices = driver.createOutputTopic(
                "gpuaas.notices",
                Serdes.String().deserializer(),
                Topics.NOTICES.valueSerde().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private String bookNow(String pool, Duration duration) {
        CreateBooking create = new CreateBooking(
                UUID.randomUUID().toString(),
                null,
                TEAM_A,
                pool,
                UUID.randomUUID().toString(),
                "team-a",
                1,
                null,
                null,
                null,
                START,
                null,
                duration);
        commands.pipeInput(pool, create);
        return create.bookingId();
    }

    private void advance(Duration step, int times) {
        for (int i = 0; i < times; i++) {
            driver.advanceWallClockTime(step);
        }
    }

    private void pendingWorkload(String namespace, String resource) {
        WorkloadObserved pending = new WorkloadObserved(
                namespace,
                "train",
                "uid-1",
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                new Condition("QuotaReserved", "False", "Pending", null, START),
                List.of(new Condition("QuotaReserved", "False", "Pending", null, START)),
                List.of(new PodSet("workers", 2, Map.of(resource, "1"))),
                List.of(),
                null,
                START.plusSeconds(5));
        RecordHeaders headers = new RecordHeaders();
        byte[] body = Topics.KUEUE_WORKLOADS.valueSerde().serializer().serialize("t", headers, pending);
        workloads.pipeInput(new TestRecord<>(
                WorkloadEvent.key(namespace, "train").getBytes(StandardCharsets.UTF_8), body, headers, START));
    }

    @Test
    void shouldWarnAtHalfTheGraceAndHaveTheDeciderReleaseTheBookingAtTheGraceWhenNoWorkloadComes() {
        String id = bookNow("h200", Duration.ofMinutes(5));
        events.readRecordsToList();

        advance(Duration.ofSeconds(1), 29);
        assertThat(notices.isEmpty()).as("no warning before half the grace").isTrue();
        advance(Duration.ofSeconds(1), 1);
        List<TestRecord<String, Notice>> warned = notices.readRecordsToList();
        advance(Duration.ofSeconds(1), 29);
        assertThat(events.isEmpty()).as("not released before the grace").isTrue();
        advance(Duration.ofSeconds(1), 2);

        assertThat(warned).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo(id);
            NoShowWarning warning = (NoShowWarning) r.value();
            assertThat(warning.releaseAt()).isEqualTo(START.plusSeconds(60));
            assertThat(CloudEvents.header(r.headers(), CloudEvents.ID))
                    .isEqualTo(
                            CloudEventHeaders.idOf(Notice.noShowWarningId(id)).toString());
        });
        assertThat(events.readValuesToList()).singleElement().isInstanceOfSatisfying(BookingReleased.class, r -> {
            assertThat(r.reason()).isEqualTo(BookingReleased.Reason.NO_SHOW);
            assertThat(r.requestId()).isEqualTo(LifecycleRules.releaseId(id));
            assertThat(r.releasedAt()).isEqualTo(START.plusSeconds(60));
        });
        advance(Duration.ofSeconds(10), 30);
        assertThat(notices.isEmpty())
                .as("nothing more about a released booking")
                .isTrue();
        assertThat(events.isEmpty()).isTrue();
    }

    @Test
    void shouldKeepTheBookingWhenAWorkloadOfItsTenantIsPendingOnThePool() {
        pendingWorkload("team-a", "nvidia.com/gpu");
        bookNow("h200", Duration.ofMinutes(5));
        events.readRecordsToList();

        advance(Duration.ofSeconds(5), 36);

        assertThat(notices.readValuesToList()).noneMatch(NoShowWarning.class::isInstance);
        assertThat(events.readValuesToList()).noneMatch(BookingReleased.class::isInstance);
    }

    @Test
    void shouldReleaseTheBookingWhenOnlyAnotherTenantsWorkloadIsPending() {
        pendingWorkload("team-b", "nvidia.com/gpu");
        bookNow("h200", Duration.ofMinutes(5));
        events.readRecordsToList();

        advance(Duration.ofSeconds(5), 13);

        assertThat(events.readValuesToList()).singleElement().isInstanceOf(BookingReleased.class);
    }

    @Test
    void shouldDeadLetterAnUnreadableWorkloadRecordAndKeepReadingTheTopic() {
        workloads.pipeInput("team-a/x".getBytes(StandardCharsets.UTF_8), "garbage".getBytes(StandardCharsets.UTF_8));
        pendingWorkload("team-a", "nvidia.com/gpu");
        bookNow("h200", Duration.ofMinutes(5));
        events.readRecordsToList();

        advance(Duration.ofSeconds(5), 36);

        assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> {
            assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("garbage");
            assertThat(letter.topic()).isEqualTo("gpuaas.dead-letter");
        });
        assertThat(events.readValuesToList()).noneMatch(BookingReleased.class::isInstance);
    }

    @Test
    void shouldSendEachEndingSoonLeadOnceWhenABookingRunsToItsEnd() {
        String id = bookNow(MIG, Duration.ofSeconds(60));

        advance(Duration.ofSeconds(1), 90);

        List<Notice> sent = notices.readValuesToList();
        assertThat(sent).allSatisfy(n -> assertThat(n).isInstanceOf(BookingEndingSoon.class));
        assertThat(sent)
                .extracting(n -> ((BookingEndingSoon) n).lead())
                .containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(10));
        assertThat(sent).extracting(Notice::time).containsExactly(START.plusSeconds(30), START.plusSeconds(50));
        assertThat(sent).extracting(n -> ((BookingEndingSoon) n).bookingId()).containsOnly(id);
    }
}
