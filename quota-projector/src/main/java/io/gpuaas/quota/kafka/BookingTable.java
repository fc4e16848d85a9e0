package io.gpuaas.quota.kafka;

import io.gpuaas.events.EventReader;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.quota.k8s.BookingSource;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica of the compacted bookings topic in memory: every booking that still holds capacity now or later.
 * 100,000 future bookings are a few tens of MB. The plan must not run before the table has caught up with the
 * topic's end as of start, or it would drain every tenant whose booking it has not read yet.
 */
public final class BookingTable implements BookingSource, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BookingTable.class);

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final EventReader<Booking> reader;
    private final Runnable onChange;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final Map<String, Booking> bookings = new ConcurrentHashMap<>();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;

    public BookingTable(Consumer<byte[], byte[]> consumer, String topic, EventReader<Booking> reader, Runnable onChange,
                        Clock clock, QuotaProjectorMetrics metrics) {
        this.consumer = consumer;
        this.topic = topic;
        this.reader = reader;
        this.onChange = onChange;
        this.clock = clock;
        this.metrics = metrics;
        this.thread = new Thread(this::run, "booking-table");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Waits until every booking written before start has been read. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean isCaughtUp() {
        return caughtUp.getCount() == 0;
    }

    @Override
    public Collection<Booking> bookings() {
        return List.copyOf(bookings.values());
    }

    private void run() {
        try {
            Map<TopicPartition, Long> end = TopicReplay.fromBeginning(consumer, topic, Duration.ofSeconds(30));
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                boolean changed = false;
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    changed |= apply(record);
                }
                if (caughtUp.getCount() > 0 && TopicReplay.caughtUp(consumer, end)) {
                    LOG.info("bookings table caught up: {} bookings hold capacity now or later", bookings.size());
                    caughtUp.countDown();
                    changed = true;
                }
                if (changed && isCaughtUp()) {
                    metrics.bookingsKnown(bookings.size());
                    onChange.run();
                }
            }
        } catch (WakeupException e) {
            LOG.debug("booking table stopped");
        } catch (RuntimeException e) {
            LOG.error("booking table failed; quota is no longer updated", e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private boolean apply(ConsumerRecord<byte[], byte[]> record) {
        String key = reader.key(record);
        if (key == null) {
            return false;
        }
        if (record.value() == null) {
            return bookings.remove(key) != null;
        }
        Booking booking = reader.read(record).orElse(null);
        if (booking == null) {
            return false;
        }
        // Only bookings that can still hold capacity matter; ended or cancelled ones leave the table.
        if (booking.state().holdsCapacity() && booking.end().isAfter(clock.instant())) {
            bookings.put(key, booking);
        } else {
            bookings.remove(key);
        }
        return true;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(3_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
