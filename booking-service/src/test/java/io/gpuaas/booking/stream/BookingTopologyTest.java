package io.gpuaas.booking.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
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
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
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
    private final List<DecisionOutcome> outcomes = new ArrayList<>();
    private TopologyTestDriver driver;
    private TestInputTopic<String, BookingCommand> commands;
    private TestOutputTopic<String, BookingEvent> events;
    private TestOutputTopic<String, Booking> bookings;

    @BeforeEach
    void start() {
        BookingPolicy policy = new BookingPolicy(Duration.ofDays(1), Duration.ofDays(30), Duration.ofSeconds(1), 1.0,
                Duration.ofMinutes(1));
        BookingDecider decider = new BookingDecider(PoolCatalog.load(Optional.empty()), policy);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "booking-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, CommandDeserializationHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, CommandProcessingHandler.class);
        props.put(DeadLetterSink.CONFIG_KEY, new DeadLetterSink(deadLetterProducer, "gpuaas.", (t, r) -> { }));
        driver = new TopologyTestDriver(BookingTopology.build("gpuaas.", decider, Duration.ofMillis(200),
                Duration.ofDays(7), outcomes::add), props, START);
        commands = driver.createInputTopic("gpuaas.booking-commands", Serdes.String().serializer(),
                Topics.BOOKING_COMMANDS.valueSerde().serializer());
        events = driver.createOutputTopic("gpuaas.booking-events", Serdes.String().deserializer(),
                Topics.BOOKING_EVENTS.valueSerde().deserializer());
        bookings = driver.createOutputTopic("gpuaas.bookings", Serdes.String().deserializer(),
                Topics.BOOKINGS.valueSerde().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private CreateBooking create(int quantity, Instant start, Instant end) {
        return new CreateBooking(UUID.randomUUID().toString(), null, TEAM_A, "h200", UUID.randomUUID().toString(),
                "team-a", quantity, start, end, "training", START);
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
    void shouldActivateAndCompleteWithinASecondWhenTheWallClockCrossesTheWindow() {
        CreateBooking command = create(2, START.plusSeconds(5), START.plusSeconds(10));
        commands.pipeInput("h200", command);
        events.readRecordsToList();

        driver.advanceWallClockTime(Duration.ofMillis(5_200));
        assertThat(events.readValuesToList()).singleElement()
                .isInstanceOf(BookingEvent.BookingActivated.class);
        driver.advanceWallClockTime(Duration.ofMillis(5_000));
        List<BookingEvent> later = events.readValuesToList();
        assertThat(later).singleElement().isInstanceOf(BookingEvent.BookingCompleted.class);
        assertThat(later.getFirst().time()).isBetween(START.plusSeconds(10), START.plusSeconds(11));
        assertThat(bookings.readKeyValuesToMap().get(command.bookingId()).state()).isEqualTo(BookingState.COMPLETED);
    }

    @Test
    void shouldDeadLetterAndCarryOnWhenACommandIsGarbageOrIncomplete() {
        driver.createInputTopic("gpuaas.booking-commands", new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput("h200".getBytes(StandardCharsets.UTF_8), "{not json".getBytes(StandardCharsets.UTF_8));
        commands.pipeInput("h200", new BookingCommand.CancelBooking(null, null, TEAM_A, "h200", "b-1", START));
        commands.pipeInput("h200-mig-1g.18gb", create(1, START.plusSeconds(60), START.plusSeconds(120)));
        commands.pipeInput("h200", create(1, START.plusSeconds(60), START.plusSeconds(120)));

        assertThat(deadLetterProducer.history()).hasSize(3);
        assertThat(new String(deadLetterProducer.history().get(0).headers().lastHeader("gpuaas_dlq_reason").value(),
                StandardCharsets.UTF_8)).isEqualTo("MISSING_TYPE");
        assertThat(new String(deadLetterProducer.history().get(1).headers().lastHeader("gpuaas_dlq_reason").value(),
                StandardCharsets.UTF_8)).isEqualTo("SCHEMA_VIOLATION");
        assertThat(new String(deadLetterProducer.history().get(2).headers().lastHeader("gpuaas_dlq_reason").value(),
                StandardCharsets.UTF_8)).isEqualTo("INVALID_COMMAND");
        assertThat(events.readValuesToList()).singleElement().isInstanceOf(BookingConfirmed.class);
    }
}
