package io.gpuaas.quota.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.RecordHandler;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.gpuaas.quota.k8s.BookingSource;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A replica of the compacted bookings topic in memory: every booking that still holds capacity now or later.
 * 100,000 future bookings are a few tens of MB. It is kept by service-kit's {@link TopicReplica} ({@link #replica()},
 * the component {@code booking-table}): a failing consumer or handler makes it RECOVERING (readiness DOWN) and it
 * resumes by itself without skipping a record. The plan must not run before it has caught up with the topic's end
 * as of start, or it would drain every tenant whose booking it has not read yet.
 */
public final class BookingTable implements BookingSource {

    /** A booking is never given up on: quota that silently misses one is worse than a replica that stays unready. */
    private static final int HANDLER_ATTEMPTS = Integer.MAX_VALUE;

    private final Map<String, Booking> bookings = new ConcurrentHashMap<>();
    private final Runnable onChange;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final TopicReplica replica;

    /**
     * @param onChange called after every applied record (cheap: it only asks for a new plan)
     * @param decorate wraps the record handler; the identity in production (a test seam for handler faults)
     */
    public BookingTable(
            KafkaClients kafka,
            DeadLetterPublisher deadLetters,
            Runnable onChange,
            Clock clock,
            QuotaProjectorMetrics metrics,
            UnaryOperator<RecordHandler<Booking>> decorate,
            int startOrder) {
        this.onChange = onChange;
        this.clock = clock;
        this.metrics = metrics;
        this.replica = TopicReplica.builder(
                        "booking-table",
                        () -> kafka.replicaConsumer("quota-projector-bookings"),
                        kafka.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.BOOKINGS, StartAt.BEGINNING, decorate.apply(this::apply))
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .handlerRetries(HANDLER_ATTEMPTS)
                .startOrder(startOrder)
                .build();
    }

    /** The lifecycle component that keeps this table. */
    public TopicReplica replica() {
        return replica;
    }

    /** Whether every booking written before start has been read. */
    public boolean caughtUp() {
        return replica.caughtUp();
    }

    @Override
    public Collection<Booking> bookings() {
        return List.copyOf(bookings.values());
    }

    private void apply(String key, Booking booking) {
        // Only bookings that can still hold capacity matter; ended or cancelled ones (and deletes) leave the table.
        if (booking != null && booking.state().holdsCapacity() && booking.end().isAfter(clock.instant())) {
            bookings.put(key, booking);
        } else {
            bookings.remove(key);
        }
        metrics.bookingsKnown(bookings.size());
        onChange.run();
    }
}
