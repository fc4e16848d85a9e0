package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.IdempotencyEntry;
import io.gpuaas.booking.model.KeptHours;
import io.gpuaas.events.DeadLetterDeserializationHandler;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.WaitlistEntry;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * {@code booking-commands} (keyed by pool) → the decision processor with its RocksDB stores →
 * {@code booking-events} (keyed by booking id) and the compacted {@code bookings} (latest state); the waitlist's
 * entries (a third store) to the compacted {@code waitlist}; the waitlist's notices and the outcomes of approvals to
 * {@code notices}; granted keep answers to {@code reclaim-keeps} (keyed by workload).
 */
public final class BookingTopology {

    public static final String SOURCE = "booking-commands";
    public static final String PROCESSOR = "decide";
    public static final String EVENTS_SINK = "booking-events";
    public static final String BOOKINGS_SINK = "bookings";
    public static final String APPROVAL_NOTICES_SINK = "approval-notices";
    public static final String BOOKING_STORE = "bookings-by-id";
    public static final String IDEMPOTENCY_STORE = "idempotency-keys";
    public static final String WAITLIST_STORE = "waitlist-entries";
    public static final String WAITLIST_SINK = "waitlist";
    public static final String NOTICES_SINK = "decision-notices";
    public static final String KEPT_STORE = "kept-hours-by-booking";
    public static final String RECLAIM_KEEPS_SINK = "reclaim-keeps";

    private BookingTopology() {}

    /**
     * @param prefix    topic prefix, e.g. {@code gpuaas.}
     * @param decider   the decision rules
     * @param tick      how often the lifecycle clock looks for due bookings (well under a second)
     * @param retention how long idempotency answers and finished bookings are kept
     * @param observer  told about every decision and every placement a rebuild refused (metrics)
     */
    public static Topology build(
            String prefix, BookingDecider decider, Duration tick, Duration retention, DecisionObserver observer) {
        Topology topology = new Topology();
        // The topic's deserializer with the tombstone rule: a null command is dead-lettered (TOMBSTONE) like any
        // command that cannot be read, before it reaches the decision.
        topology.addSource(
                SOURCE,
                Serdes.String().deserializer(),
                EventSerdes.valueDeserializer(Topics.BOOKING_COMMANDS),
                Topics.BOOKING_COMMANDS.name(prefix));
        topology.addProcessor(PROCESSOR, () -> new DecisionProcessor(decider, tick, retention, observer), SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(BOOKING_STORE), Serdes.String(), new JsonSerde<>(Booking.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(IDEMPOTENCY_STORE),
                        Serdes.String(),
                        new JsonSerde<>(IdempotencyEntry.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(WAITLIST_STORE),
                        Serdes.String(),
                        new JsonSerde<>(WaitlistEntry.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(KEPT_STORE), Serdes.String(), new JsonSerde<>(KeptHours.class)),
                PROCESSOR);
        // A granted keep answer goes to idle-reclaimer in the decision's own transaction (keyed by workload).
        topology.addSink(
                RECLAIM_KEEPS_SINK,
                Topics.RECLAIM_KEEPS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.RECLAIM_KEEPS.valueSerde()),
                PROCESSOR);
        topology.addSink(
                WAITLIST_SINK,
                Topics.WAITLIST.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.WAITLIST.valueSerde()),
                PROCESSOR);
        topology.addSink(
                NOTICES_SINK,
                Topics.NOTICES.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.NOTICES.valueSerde()),
                PROCESSOR);
        topology.addSink(
                EVENTS_SINK,
                Topics.BOOKING_EVENTS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.BOOKING_EVENTS.valueSerde()),
                PROCESSOR);
        topology.addSink(
                BOOKINGS_SINK,
                Topics.BOOKINGS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.BOOKINGS.valueSerde()),
                PROCESSOR);
        // An approval's outcome is told on notices in the decision's own transaction: once, like the decision.
        topology.addSink(
                APPROVAL_NOTICES_SINK,
                Topics.NOTICES.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.NOTICES.valueSerde()),
                PROCESSOR);
        return topology;
    }

    /**
     * Streams settings that send unreadable, schema-violating and null commands
     * ({@link DeadLetterDeserializationHandler}) and undecidable ones
     * ({@link CommandProcessingHandler}) to the dead-letter topic through {@code deadLetters}. Streams hands config
     * objects to the handlers' {@code configure}, so every {@code KafkaStreams} built from these settings, a
     * restarted one too, writes through the same publisher (whose producer outlives any one instance).
     */
    public static Map<String, Object> errorHandling(DeadLetterPublisher deadLetters) {
        return Map.of(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterDeserializationHandler.class,
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                CommandProcessingHandler.class,
                DeadLetterDeserializationHandler.PUBLISHER_CONFIG,
                deadLetters);
    }

    /** The processor forwards two value types by child name; each sink only ever sees its own. */
    @SuppressWarnings("unchecked")
    private static Serializer<Object> loosely(Serde<?> serde) {
        return (Serializer<Object>) serde.serializer();
    }
}
