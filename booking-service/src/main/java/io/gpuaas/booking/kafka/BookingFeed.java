package io.gpuaas.booking.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer thread per instance reading every partition of {@code bookings} (from the beginning, to build
 * the view), of {@code booking-events} (from the end, to answer waiting HTTP calls) and of
 * {@code booking-commands} (from the beginning, to learn every idempotency key any instance bound; commands that do
 * not decode are the decider's to dead-letter, so they are skipped here). No consumer group: each
 * instance needs all partitions, because any instance may receive the HTTP call for any pool. Records that do
 * not decode or cannot be trusted (a schema violation; a null value on {@code booking-events}, which is not
 * compacted) go to the dead-letter topic (from every instance that reads them) and the feed moves on; a null on the
 * compacted {@code bookings} is a delete and is skipped. While a dead letter cannot be written the feed retries it
 * instead of skipping the record.
 */
@Context
public class BookingFeed implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(BookingFeed.class);
    private static final Duration DEAD_LETTER_RETRY = Duration.ofSeconds(1);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String bookingsTopic;
    private final String eventsTopic;
    private final String commandsTopic;
    private final IdempotencyKeys keys;
    private final BookingView view;
    private final DecisionAwaiter awaiter;
    private final DeadLetterPublisher deadLetters;
    private final EventReader<Booking> bookings;
    private final EventReader<BookingEvent> events;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread thread;
    private volatile Map<TopicPartition, Long> initialEnd;
    private volatile boolean running = true;

    public BookingFeed(KafkaClients clients, BookingView view, DecisionAwaiter awaiter, DeadLetterPublisher deadLetters,
                       IdempotencyKeys keys) {
        Map<String, Object> config = clients.consumerConfig(null);
        config.put("fetch.max.wait.ms", 20);
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.bookingsTopic = clients.topic(Topics.BOOKINGS);
        this.eventsTopic = clients.topic(Topics.BOOKING_EVENTS);
        this.commandsTopic = clients.topic(Topics.BOOKING_COMMANDS);
        this.keys = keys;
        this.view = view;
        this.awaiter = awaiter;
        this.deadLetters = deadLetters;
        this.bookings = EventReader.of(Topics.BOOKINGS, deadLetters);
        this.events = EventReader.of(Topics.BOOKING_EVENTS, deadLetters);
        this.thread = new Thread(this, "booking-feed");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            assign();
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                records.forEach(this::apply);
                checkCaughtUp();
            }
        } catch (WakeupException e) {
            if (running) {
                LOG.error("booking feed woken unexpectedly", e);
            }
        } catch (RuntimeException e) {
            LOG.error("booking feed stopped", e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void assign() {
        List<TopicPartition> bookings = partitions(bookingsTopic);
        List<TopicPartition> events = partitions(eventsTopic);
        List<TopicPartition> commands = partitions(commandsTopic);
        List<TopicPartition> all = new ArrayList<>(bookings);
        all.addAll(events);
        all.addAll(commands);
        consumer.assign(all);
        consumer.seekToBeginning(bookings);
        consumer.seekToBeginning(commands);
        consumer.seekToEnd(events);
        events.forEach(consumer::position);
        initialEnd = consumer.endOffsets(bookings);
    }

    private List<TopicPartition> partitions(String topic) {
        while (running) {
            var infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            }
            LOG.info("waiting for topic {}", topic);
        }
        return List.of();
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        if (record.topic().equals(bookingsTopic)) {
            // A null here is a delete on the compacted topic: nothing to show, nothing wrong (the reader is empty).
            read(bookings, record).ifPresent(booking -> process(record, () -> view.upsert(booking)));
            return;
        }
        if (record.topic().equals(commandsTopic)) {
            learnKey(record);
            return;
        }
        read(events, record).ifPresent(event -> process(record, () -> {
            BookingEvents.bookingOf(event).ifPresent(view::upsert);
            awaiter.deliver(DecisionAwaiter.requestIdOf(event), event);
        }));
    }

    /** The decoded value, or empty once the reader dead-lettered it; retries while that dead letter cannot be written. */
    private <T> Optional<T> read(EventReader<T> reader, ConsumerRecord<byte[], byte[]> record) {
        while (running) {
            try {
                return reader.read(record);
            } catch (KafkaException e) {
                LOG.error("cannot dead-letter {}-{}@{}; retrying in {}", record.topic(), record.partition(),
                        record.offset(), DEAD_LETTER_RETRY, e);
                sleep(DEAD_LETTER_RETRY);
            }
        }
        return Optional.empty();
    }

    /** A decoded record the view cannot take is dead-lettered too, so one bad booking never stops the feed. */
    private void process(ConsumerRecord<byte[], byte[]> record, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            deadLetter(record, e);
        }
    }

    private void learnKey(ConsumerRecord<byte[], byte[]> record) {
        BookingCommand command;
        try {
            command = Topics.BOOKING_COMMANDS.valueSerde().deserializer()
                    .deserialize(record.topic(), record.headers(), record.value());
        } catch (RuntimeException e) {
            return; // the decider dead-letters it once; every instance doing so too would count it N+1 times
        }
        if (command != null) {
            keys.learn(command.caller(), command.idempotencyKey(), command.requestFingerprint(), command.requestedAt());
        }
    }

    /** Nothing is committed here, so a record whose dead letter failed would be gone: try until it is written. */
    private void deadLetter(ConsumerRecord<byte[], byte[]> record, RuntimeException error) {
        while (running) {
            try {
                deadLetters.publish(record, error);
                return;
            } catch (KafkaException e) {
                LOG.error("cannot dead-letter {}-{}@{}; retrying in {}", record.topic(), record.partition(),
                        record.offset(), DEAD_LETTER_RETRY, e);
                sleep(DEAD_LETTER_RETRY);
            }
        }
    }

    private void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void checkCaughtUp() {
        if (caughtUp.getCount() == 0 || initialEnd == null) {
            return;
        }
        boolean done = initialEnd.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
        if (done) {
            LOG.info("booking view loaded: {} bookings", view.size());
            caughtUp.countDown();
        }
    }

    /** Whether the view has read every booking that existed when this instance started. */
    public boolean isCaughtUp() {
        return caughtUp.getCount() == 0;
    }

    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
