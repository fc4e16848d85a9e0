package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.LifecycleRules;
import io.gpuaas.booking.model.TrackedBooking;
import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Topics;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The lifecycle sub-topology, added beside the decisions in the same Streams application (so exactly-once the same
 * way): {@code gpuaas.bookings} (latest state per booking) → {@link LifecycleProcessor} with its store
 * {@code booking-lifecycle} → notices on {@code gpuaas.notices} (keyed by booking id) and no-show releases on
 * {@code gpuaas.booking-commands} (keyed by pool, decided by the decision processor like any command). The Workloads
 * come from the global store {@code workload-presence}, fed from {@code gpuaas.kueue-workloads} by
 * {@link WorkloadIndexUpdater}: every instance holds all of them, because a booking and its tenant's Workloads are
 * keyed differently and live in different partitions.
 */
public final class LifecycleTopology {

    public static final String SOURCE = "bookings-for-lifecycle";
    public static final String PROCESSOR = "lifecycle";
    public static final String NOTICES_SINK = "notices";
    public static final String COMMANDS_SINK = "no-show-releases";
    public static final String LIFECYCLE_STORE = "booking-lifecycle";
    public static final String PRESENCE_SOURCE = "kueue-workloads";
    public static final String PRESENCE_UPDATER = "workload-presence-update";
    public static final String PRESENCE_STORE = "workload-presence";

    private LifecycleTopology() {}

    /**
     * Adds the lifecycle to {@code topology}.
     *
     * @param prefix      topic prefix, e.g. {@code gpuaas.}
     * @param rules       what is due when
     * @param cells       where a Workload counts (the pool catalog's resources)
     * @param interval    how often the active bookings are looked at
     * @param deadLetters where an unreadable Workload record goes
     * @param outcomes    told about every notice and release (metrics)
     */
    public static Topology addTo(
            Topology topology,
            String prefix,
            LifecycleRules rules,
            WorkloadCells cells,
            Duration interval,
            DeadLetterPublisher deadLetters,
            LifecycleOutcomes outcomes) {
        topology.addSource(
                SOURCE,
                Serdes.String().deserializer(),
                EventSerdes.valueDeserializer(Topics.BOOKINGS),
                Topics.BOOKINGS.name(prefix));
        topology.addProcessor(PROCESSOR, () -> new LifecycleProcessor(rules, interval, outcomes), SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(LIFECYCLE_STORE),
                        Serdes.String(),
                        new JsonSerde<>(TrackedBooking.class)),
                PROCESSOR);
        topology.addSink(
                NOTICES_SINK,
                Topics.NOTICES.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.NOTICES.valueSerde().serializer()),
                PROCESSOR);
        topology.addSink(
                COMMANDS_SINK,
                Topics.BOOKING_COMMANDS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.BOOKING_COMMANDS.valueSerde().serializer()),
                PROCESSOR);
        // A global store is restored from its source topic, never from a changelog.
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(PRESENCE_STORE), Serdes.String(), Serdes.ByteArray())
                        .withLoggingDisabled(),
                PRESENCE_SOURCE,
                Serdes.ByteArray().deserializer(),
                Serdes.ByteArray().deserializer(),
                Topics.KUEUE_WORKLOADS.name(prefix),
                PRESENCE_UPDATER,
                () -> new WorkloadIndexUpdater(cells, deadLetters));
        return topology;
    }

    /** The processor forwards notices and commands by child name; each sink only ever sees its own. */
    @SuppressWarnings("unchecked")
    private static Serializer<Object> loosely(Serializer<?> serializer) {
        return (Serializer<Object>) serializer;
    }
}
