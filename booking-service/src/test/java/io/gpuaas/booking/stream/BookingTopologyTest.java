package io.gpuaas.booking.stream;

import static io.gpuaas.booking.DeadLetterTopic.assertHeaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.booking.DeadLetterTopic;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.BookingRejected;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.PoolCatalog;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BookingTopologyTest {

    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Caller TEAM_A = new Caller("alice", "team-a", false);

    @TempDir
    Path stateDir;

    private final MockProducer<byte[], byte[]> deadLetterProducer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<DecisionOutcome> outcomes = new ArrayList<>();
    private TopologyTestDriver driver;
    private TestInputTopic<String, BookingCommand> commands;
    private TestOutputTopic<String, BookingEvent> events;
    private TestOutputTopic<String, Booking> bookings;

    @BeforeEach
    void start() {
        BookingPolicy policy = new BookingPolicy(
                Duration.ofDays(1), Duration.ofDays(30), Duration.ofSeconds(1), 1.0, Duration.ofMinutes(1));
        BookingDecider decider = new BookingDecider(PoolCatalog.load(Optional.empty()), policy);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "booking-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.putAll(BookingTopology.errorHandling(
                new DeadLetterPublisher(deadLetterProducer, "gpuaas.dead-letter", "booking-service", registry)));
        driver = new TopologyTestDriver(
                BookingTopology.build("gpuaas.", decider, Duration.ofMillis(200), Duration.ofDays(7), outcomes::add),
                props,
                START);
        commands = driver.createInputTopic(
                "gpuaas.booking-commands",
                Serdes.String().serializer(),
                Topics.BOOKING_COMMANDS.valueSerde().serializer());
        events = driver.createOutputTopic(
                "gpuaas.booking-events",
                Serdes.String().deserializer(),
                Topics.BOOKING_EVENTS.valueSerde().deserializer());
        bookings = driver.createOutputTopic(
                "gpuaas.bookings",
                Serdes.String().deserializer(),
                Topics.BOOKINGS.valueSerde().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private CreateBooking create(int quantity, Instant start, Instant end) {
        return new CreateBooking(
                UUID.randomUUID().toString(),
                null,
                TEAM_A,
                "h200",
                UUID.randomUUID().toString(),
                "team-a",
                quantity,
                start,
                end,
                "training",
                START);
    }

    @Test
    void shouldPublishTheDecisionKeyedByBookingAndTheStateWhenACommandArrives() {
        CreateBooking command = create(8, START.plusSeconds(60), START.plusSeconds(120));
        commands.pipeInput("h200", command);
        commands.pipeInput("h200", create(1, START.plusSeconds(90), START.plusSeconds(100)));

        List<TestRecord<String, BookingEvent>> out = events.readRecordsToList();
        assertThat(out).hasSize(2);
        assertThat(out.get(0).key()).isEqualTo(command.bookingId());
        assertThat(out.get(0).value()).isInstanceOf(BookingConfirmed.class);
        assertThat(((BookingRejected) out.get(1).value()).reason()).isEqualTo("CAPACITY");
        assertThat(new String(out.get(0).headers().lastHeader("ce_type").value(), StandardCharsets.UTF_8))
                .isEqualTo("io.gpuaas.booking.confirmed.v1");
        assertThat(bookings.readKeyValuesToMap()).containsOnlyKeys(command.bookingId());
    }

    @Test
    void shouldPublishTheSeriesAnswerKeyedBySeriesWithEveryOccurrenceInOneDecisionWhenASeriesArrives() {
        Instant day = START.plus(Duration.ofDays(1));
        commands.pipeInput(
                "h200",
                create(
                        8,
                        day.plus(Duration.ofDays(1)),
                        day.plus(Duration.ofDays(1)).plusSeconds(60)));
        events.readRecordsToList();
        bookings.readRecordsToList();
        BookingCommand.CreateSeries series = new BookingCommand.CreateSeries(
                "req-series",
                null,
                TEAM_A,
                "h200",
                "series-1",
                "team-a",
                2,
                day,
                day.plusSeconds(3600),
                null,
                "daily demo",
                null,
                "FREQ=DAILY;COUNT=3",
                null,
                null,
                START,
                null);

        commands.pipeInput("h200", series);

        List<TestRecord<String, BookingEvent>> out = events.readRecordsToList();
        assertThat(out).hasSize(3);
        assertThat(out.getFirst().key()).isEqualTo("series-1");
        BookingEvent.SeriesDecided answer =
                (BookingEvent.SeriesDecided) out.getFirst().value();
        assertThat(answer.confirmed()).hasSize(2);
        assertThat(answer.refused()).singleElement().satisfies(r -> assertThat(r.reason())
                .isEqualTo("CAPACITY"));
        assertThat(out.subList(1, 3)).allSatisfy(r -> {
            assertThat(r.value()).isInstanceOf(BookingConfirmed.class);
            assertThat(r.value().requestId()).isEqualTo("req-series");
            assertThat(r.key()).isEqualTo(r.value().bookingId());
        });
        assertThat(bookings.readValuesToList()).hasSize(2).allSatisfy(b -> assertThat(b.seriesId())
                .isEqualTo("series-1"));
        assertThat(outcomes.getLast().answer()).isInstanceOf(BookingEvent.SeriesDecided.class);
    }

    @Test
    void shouldActivateAndCompleteWithinASecondWhenTheWallClockCrossesTheWindow() {
        CreateBooking command = create(2, START.plusSeconds(5), START.plusSeconds(10));
        commands.pipeInput("h200", command);
        events.readRecordsToList();

        driver.advanceWallClockTime(Duration.ofMillis(5_200));
        assertThat(events.readValuesToList()).singleElement().isInstanceOf(BookingEvent.BookingActivated.class);
        driver.advanceWallClockTime(Duration.ofMillis(5_000));
        List<BookingEvent> later = events.readValuesToList();
        assertThat(later).singleElement().isInstanceOf(BookingEvent.BookingCompleted.class);
        assertThat(later.getFirst().time()).isBetween(START.plusSeconds(10), START.plusSeconds(11));
        assertThat(bookings.readKeyValuesToMap().get(command.bookingId()).state())
                .isEqualTo(BookingState.COMPLETED);
    }

    @Test
    void shouldConfirmAndActivateInOneDecisionAtTheWallClockWhenBookedNow() {
        driver.advanceWallClockTime(Duration.ofMillis(1_500));
        Instant decided = START.plusMillis(1_500);
        CreateBooking now = new CreateBooking(
                "req-now",
                null,
                TEAM_A,
                "h200",
                "bk-now",
                "team-a",
                2,
                null,
                null,
                null,
                START,
                null,
                Duration.ofMinutes(10));

        commands.pipeInput("h200", now);

        List<BookingEvent> out = events.readValuesToList();
        assertThat(out).hasExactlyElementsOfTypes(BookingConfirmed.class, BookingEvent.BookingActivated.class);
        assertThat(out).extracting(BookingEvent::time).containsOnly(decided);
        assertThat(out).extracting(BookingEvent::requestId).containsOnly("req-now");
        Booking state = bookings.readKeyValuesToMap().get("bk-now");
        assertThat(state.state()).isEqualTo(BookingState.ACTIVE);
        assertThat(state.start())
                .as("the decider's clock, not the edge's requestedAt")
                .isEqualTo(decided);
        assertThat(state.end()).isEqualTo(START.plus(Duration.ofMinutes(10)).plusSeconds(2));
    }

    @Test
    void shouldDeadLetterWithTheOriginalBytesAndCarryOnWhenACommandCannotBeDecoded() {
        Instant sent = START.minusSeconds(5);
        rawCommands().pipeInput(new TestRecord<>(utf8("h200"), utf8("{not json"), new RecordHeaders(), sent));
        commands.pipeInput("h200", new BookingCommand.CancelBooking(null, null, TEAM_A, "h200", "b-1", START), sent);
        commands.pipeInput("h200", create(1, START.plusSeconds(60), START.plusSeconds(120)));

        assertThat(deadLetterProducer.history()).hasSize(2);
        ProducerRecord<byte[], byte[]> garbage = deadLetterProducer.history().get(0);
        assertThat(garbage.topic()).isEqualTo("gpuaas.dead-letter");
        assertThat(garbage.key()).isEqualTo(utf8("h200"));
        assertThat(garbage.value()).isEqualTo(utf8("{not json"));
        assertHeaders(garbage.headers(), "MISSING_TYPE", "gpuaas.booking-commands", 0, 0, sent.toEpochMilli());
        ProducerRecord<byte[], byte[]> incomplete = deadLetterProducer.history().get(1);
        assertHeaders(incomplete.headers(), "SCHEMA_VIOLATION", "gpuaas.booking-commands", 0, 1, sent.toEpochMilli());
        assertThat(header(incomplete, CloudEvents.TYPE)).isEqualTo("io.gpuaas.booking.command.cancel.v1");
        assertThat(deadLettered("MISSING_TYPE")).isEqualTo(1.0);
        assertThat(deadLettered("SCHEMA_VIOLATION")).isEqualTo(1.0);
        assertThat(events.readValuesToList()).singleElement().isInstanceOf(BookingConfirmed.class);
    }

    @Test
    void shouldDeadLetterTheCommandAsItArrivedAndCarryOnWhenItsKeyIsNotItsPool() {
        Instant sent = START.minusSeconds(3);
        CreateBooking misrouted = create(1, START.plusSeconds(60), START.plusSeconds(120));
        RecordHeaders headers = new RecordHeaders();
        byte[] value = Topics.BOOKING_COMMANDS
                .valueSerde()
                .serializer()
                .serialize("gpuaas.booking-commands", headers, misrouted);
        rawCommands().pipeInput(new TestRecord<>(utf8("h200-mig-1g.18gb"), value, headers, sent));
        commands.pipeInput("h200", create(1, START.plusSeconds(60), START.plusSeconds(120)));

        ProducerRecord<byte[], byte[]> letter = deadLetterProducer.history().getFirst();
        assertThat(deadLetterProducer.history()).hasSize(1);
        assertThat(letter.key()).isEqualTo(utf8("h200-mig-1g.18gb"));
        assertThat(letter.value()).isEqualTo(value);
        assertThat(header(letter, CloudEvents.TYPE)).isEqualTo("io.gpuaas.booking.command.create.v1");
        assertHeaders(
                letter.headers(), "InvalidCommandException", "gpuaas.booking-commands", 0, 0, sent.toEpochMilli());
        assertThat(header(letter, DeadLetterPublisher.ERROR)).contains("record key must be the pool id h200");
        assertThat(deadLettered("InvalidCommandException")).isEqualTo(1.0);
        assertThat(events.readValuesToList()).singleElement().isInstanceOf(BookingConfirmed.class);
    }

    @Test
    void shouldStopTheTaskInsteadOfSkippingTheCommandWhenItsDeadLetterCannotBeWritten() {
        deadLetterProducer.sendException = new TimeoutException("dead-letter topic unavailable");
        CreateBooking misrouted = create(1, START.plusSeconds(60), START.plusSeconds(120));

        assertThatThrownBy(() -> commands.pipeInput("h200-mig-1g.18gb", misrouted))
                .isInstanceOf(StreamsException.class);
        assertThat(events.readValuesToList()).isEmpty();
        assertThat(deadLettered("InvalidCommandException")).isZero();
    }

    private TestInputTopic<byte[], byte[]> rawCommands() {
        return driver.createInputTopic("gpuaas.booking-commands", new ByteArraySerializer(), new ByteArraySerializer());
    }

    private double deadLettered(String reason) {
        return registry.scrape().stream()
                .filter(CounterSnapshot.class::isInstance)
                .map(CounterSnapshot.class::cast)
                .filter(m -> m.getMetadata().getName().equals("gpuaas_dead_letter_records"))
                .flatMap(m -> m.getDataPoints().stream())
                .filter(p -> "gpuaas.booking-commands".equals(p.getLabels().get("topic"))
                        && reason.equals(p.getLabels().get("reason")))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        return DeadLetterTopic.header(record.headers(), name);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
