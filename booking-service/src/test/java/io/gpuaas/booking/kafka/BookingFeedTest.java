package io.gpuaas.booking.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.booking.config.FeedSettings;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingEvent.BookingConfirmed;
import io.gpuaas.events.booking.BookingEvent.SeriesCancelled;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.runtime.TopicReplica;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The booking feed on an in-memory consumer: what it makes of the records it reads, judged by the read view, the
 * waiting HTTP call, the edge's idempotency keys and the dead letters it writes.
 */
class BookingFeedTest {

    private static final String PREFIX = "gpuaas.";
    private static final Instant T0 = Instant.parse("2030-01-01T10:00:00Z");
    private static final Caller ALICE = new Caller("alice", "team-a", false);
    private static final Raw GARBLED = new Raw("{not json".getBytes(UTF_8), new RecordHeaders());

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final MockProducer<byte[], byte[]> deadLetterProducer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final BookingView view = new BookingView();
    private final DecisionAwaiter awaiter = new DecisionAwaiter();
    private final IdempotencyKeys keys = new IdempotencyKeys(Duration.ofDays(7), Clock.systemUTC());
    private TopicReplica feed;

    @AfterEach
    void stop() {
        if (feed != null) {
            feed.stop(Duration.ofSeconds(5));
        }
    }

    /** Starts the feed on one partition per topic holding {@code existing}; more records arrive after. */
    private void start(Map<TopicSpec<String, ?>, List<Raw>> existing) throws InterruptedException {
        for (TopicSpec<String, ?> topic : List.of(
                Topics.BOOKINGS, Topics.WAITLIST, Topics.BUDGETS, Topics.BOOKING_EVENTS, Topics.BOOKING_COMMANDS)) {
            String name = topic.name(PREFIX);
            TopicPartition partition = new TopicPartition(name, 0);
            consumer.updatePartitions(name, List.of(new PartitionInfo(name, 0, null, null, null)));
            consumer.updateBeginningOffsets(Map.of(partition, 0L));
            List<Raw> values = existing.getOrDefault(topic, List.of());
            consumer.updateEndOffsets(Map.of(partition, (long) values.size()));
            consumer.schedulePollTask(() -> {
                for (int offset = 0; offset < values.size(); offset++) {
                    consumer.addRecord(record(name, offset, values.get(offset)));
                }
            });
        }
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                deadLetterProducer, "gpuaas.dead-letter", "booking-service", new PrometheusRegistry());
        feed = BookingFeed.feed(
                () -> consumer,
                PREFIX,
                view,
                awaiter,
                keys,
                deadLetters,
                new FeedSettings(
                        3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofSeconds(1)));
        feed.start();
        assertThat(feed.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
    }

    @Test
    void shouldServeTheBookingsThatExistedAtStartOnceCaughtUp() throws Exception {
        Booking existing = booking("b-1", 1);

        start(Map.of(Topics.BOOKINGS, List.of(bytes(Topics.BOOKINGS, existing))));

        assertThat(view.find("b-1")).contains(existing);
        assertThat(feed.health().ready()).isTrue();
    }

    @Test
    void shouldUpdateTheViewBeforeAnsweringTheWaitingCallWhenItsDecisionArrives() throws Exception {
        start(Map.of());
        CompletableFuture<BookingEvent> answer = awaiter.expect("req-1");
        Booking confirmed = booking("b-2", 1);
        CompletableFuture<Boolean> visibleWhenAnswered =
                answer.thenApply(e -> view.find("b-2").isPresent());

        consumer.schedulePollTask(() -> consumer.addRecord(record(
                Topics.BOOKING_EVENTS.name(PREFIX),
                0,
                bytes(Topics.BOOKING_EVENTS, new BookingConfirmed("req-1", confirmed, T0.minusSeconds(60))))));

        assertThat(answer.get(30, TimeUnit.SECONDS)).isInstanceOf(BookingConfirmed.class);
        assertThat(visibleWhenAnswered.get()).isTrue();
    }

    @Test
    void shouldShowASeriesCancelsOccurrencesCancelledWhenItsAnswerArrivesBeforeTheirOwnEvents() throws Exception {
        Booking first = booking("occ-1", 1);
        Booking second = booking("occ-2", 1);
        start(Map.of(Topics.BOOKINGS, List.of(bytes(Topics.BOOKINGS, first), bytes(Topics.BOOKINGS, second))));
        CompletableFuture<BookingEvent> answer = awaiter.expect("req-cancel");
        CompletableFuture<List<BookingState>> statesWhenAnswered = answer.thenApply(e -> List.of(
                view.find("occ-1").orElseThrow().state(),
                view.find("occ-2").orElseThrow().state()));

        consumer.schedulePollTask(() -> consumer.addRecord(record(
                Topics.BOOKING_EVENTS.name(PREFIX),
                0,
                bytes(
                        Topics.BOOKING_EVENTS,
                        new SeriesCancelled("req-cancel", "series-1", "h200", "team-a", T0, List.of("occ-2"), T0)))));

        assertThat(answer.get(30, TimeUnit.SECONDS)).isInstanceOf(SeriesCancelled.class);
        assertThat(statesWhenAnswered.get()).containsExactly(BookingState.CONFIRMED, BookingState.CANCELLED);
        assertThat(view.find("occ-2")).contains(second.withState(BookingState.CANCELLED, T0));
    }

    @Test
    void shouldAnswerABookNowWithItsActivationWhenTheSameDecisionConfirmedAndActivatedIt() throws Exception {
        start(Map.of());
        CompletableFuture<BookingEvent> answer = awaiter.expect("req-now");
        Booking confirmed = booking("b-now", 1);
        Booking active = confirmed.withState(BookingState.ACTIVE, T0);

        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(
                    Topics.BOOKING_EVENTS.name(PREFIX),
                    0,
                    bytes(Topics.BOOKING_EVENTS, new BookingConfirmed("req-now", confirmed, T0))));
            consumer.addRecord(record(
                    Topics.BOOKING_EVENTS.name(PREFIX),
                    1,
                    bytes(Topics.BOOKING_EVENTS, new BookingActivated(active, T0, "req-now"))));
        });

        BookingEvent answered = answer.get(30, TimeUnit.SECONDS);
        assertThat(answered).isInstanceOf(BookingActivated.class);
        assertThat(view.find("b-now")).contains(active);
    }

    @Test
    void shouldLearnKeysFromCommandsAndNeverDeadLetterACommandItCannotRead() throws Exception {
        CreateBooking command = new CreateBooking(
                "req-3",
                "key-3",
                ALICE,
                "h200",
                "b-3",
                "team-a",
                1,
                T0,
                T0.plusSeconds(3600),
                null,
                T0,
                "fingerprint-3");

        start(Map.of(Topics.BOOKING_COMMANDS, List.of(GARBLED, bytes(Topics.BOOKING_COMMANDS, command))));

        assertThat(keys.claim(IdempotencyKeys.scope(ALICE), "key-3", "another request"))
                .isFalse();
        assertThat(keys.claim(IdempotencyKeys.scope(ALICE), "key-3", "fingerprint-3"))
                .isTrue();
        assertThat(deadLetterProducer.history()).isEmpty();
    }

    @Test
    void shouldDeadLetterABookingItCannotReadAndServeTheNextOne() throws Exception {
        start(Map.of());
        Booking next = booking("b-4", 1);

        consumer.schedulePollTask(() -> {
            consumer.addRecord(record(Topics.BOOKINGS.name(PREFIX), 0, GARBLED));
            consumer.addRecord(record(Topics.BOOKINGS.name(PREFIX), 1, bytes(Topics.BOOKINGS, next)));
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> view.find("b-4").isPresent());
        assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> assertThat(letter.value())
                .isEqualTo(GARBLED.body()));
    }

    private static Booking booking(String id, long version) {
        return new Booking(
                id,
                "team-a",
                "team-a",
                "h200",
                "h200",
                "nvidia.com/gpu",
                1,
                T0,
                T0.plusSeconds(3600),
                null,
                BookingState.CONFIRMED,
                "alice",
                T0,
                T0,
                version);
    }

    /** A value as its producer wrote it: the body and the CloudEvents headers. */
    private record Raw(byte[] body, RecordHeaders headers) {}

    private static <T> Raw bytes(TopicSpec<String, T> topic, T value) {
        RecordHeaders headers = new RecordHeaders();
        return new Raw(topic.valueSerde().serializer().serialize(topic.name(PREFIX), headers, value), headers);
    }

    private static ConsumerRecord<byte[], byte[]> record(String topic, long offset, Raw value) {
        return new ConsumerRecord<>(
                topic,
                0,
                offset,
                T0.toEpochMilli(),
                TimestampType.CREATE_TIME,
                3,
                value.body().length,
                "key".getBytes(UTF_8),
                value.body(),
                value.headers(),
                Optional.empty());
    }
}
