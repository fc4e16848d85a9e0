package io.gpuaas.booking.kafka;

import io.gpuaas.booking.StartOrder;
import io.gpuaas.booking.config.FeedSettings;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The booking feed: one service-kit {@link TopicReplica} per instance reading every partition of {@code bookings}
 * and {@code waitlist} (from the beginning: the read view), of {@code booking-events} (from the end: the decisions that answer waiting
 * HTTP calls and keep the view current) and of {@code booking-commands} (from the beginning: every idempotency key
 * any instance bound). No consumer group: any instance may take the HTTP call for any pool, so each needs all
 * partitions. The replica is ready once it has read what existed when it started, and unready while it recovers
 * (a failing view, a lost broker); records it cannot decode or trust are dead-lettered by the kit. Built by
 * {@code BookingService}; it starts before the decision engine and stops after it ({@link StartOrder#FEEDS}), so
 * decisions committed on shutdown still answer.
 */
public final class BookingFeed {

    /** The component's name in health details and the consumer's client id. */
    public static final String NAME = "booking-feed";

    /** A waiting HTTP call is answered when this consumer reads its decision: an empty fetch must not hold it. */
    private static final int FETCH_MAX_WAIT_MS = 20;

    private BookingFeed() {}

    /** The feed of this deployment's topics, on byte-array consumers without a group. */
    public static TopicReplica replica(
            KafkaClients clients,
            BookingView view,
            DecisionAwaiter awaiter,
            IdempotencyKeys keys,
            DeadLetterPublisher deadLetters,
            FeedSettings settings) {
        return feed(
                () -> consumer(clients), clients.settings().topicPrefix(), view, awaiter, keys, deadLetters, settings);
    }

    /** The feed on {@code consumers} (a new byte-array consumer without a group each time one is needed). */
    static TopicReplica feed(
            Supplier<Consumer<byte[], byte[]>> consumers,
            String topicPrefix,
            BookingView view,
            DecisionAwaiter awaiter,
            IdempotencyKeys keys,
            DeadLetterPublisher deadLetters,
            FeedSettings settings) {
        return TopicReplica.builder(NAME, consumers, topicPrefix, deadLetters)
                .follow(Topics.BOOKINGS, StartAt.BEGINNING, (id, booking) -> applyState(view, booking))
                .follow(Topics.WAITLIST, StartAt.BEGINNING, (id, entry) -> applyEntry(view, entry))
                .follow(Topics.BUDGETS, StartAt.BEGINNING, (key, budget) -> applyBudget(view, budget))
                .follow(Topics.BOOKING_EVENTS, StartAt.END, (id, event) -> applyDecision(view, awaiter, event))
                .follow(CommandKeys.TOPIC, StartAt.BEGINNING, (pool, command) -> learnKey(keys, command))
                .backoff(settings.backoffInitial(), settings.backoffMax())
                .handlerRetries(settings.handlerRetries())
                .probe(settings.probeInterval(), settings.probeTimeout())
                .startOrder(StartOrder.FEEDS)
                .build();
    }

    /** A null is a delete on the compacted topic: nothing to show, nothing wrong. */
    private static void applyState(BookingView view, Booking booking) {
        if (booking != null) {
            view.upsert(booking);
        }
    }

    /** A null is a delete on the compacted topic: nothing to show. */
    private static void applyEntry(BookingView view, WaitlistEntry entry) {
        if (entry != null) {
            view.waitlist().upsert(entry);
        }
    }

    /** A null is a delete on the compacted topic: nothing to show. */
    private static void applyBudget(BookingView view, TenantBudget budget) {
        if (budget != null) {
            view.budgets().upsert(budget);
        }
    }

    /** The view first, so a client that reads its booking right after the answer finds it. */
    private static void applyDecision(BookingView view, DecisionAwaiter awaiter, BookingEvent event) {
        BookingEvents.bookingsOf(event, view::find).forEach(view::upsert);
        view.waitlist().apply(event);
        awaiter.deliver(event);
    }

    /** A command that does not decode reads as null here (see {@link CommandKeys}): nothing to learn. */
    private static void learnKey(IdempotencyKeys keys, BookingCommand command) {
        if (command != null) {
            keys.learn(command.caller(), command.idempotencyKey(), command.requestFingerprint(), command.requestedAt());
        }
    }

    private static Consumer<byte[], byte[]> consumer(KafkaClients clients) {
        // KafkaClients.replicaConsumer's settings, plus the short empty-fetch wait the HTTP answers need.
        Map<String, Object> config = clients.consumerConfig(null);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, NAME);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
