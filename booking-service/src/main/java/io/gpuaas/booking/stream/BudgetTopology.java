package io.gpuaas.booking.stream;

import io.gpuaas.booking.budget.BudgetDecider;
import io.gpuaas.booking.budget.TenantLedger;
import io.gpuaas.booking.budget.TenantSummary;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Topics;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The budget stage, in the decision engine's Streams application (so {@code exactly_once_v2} the same way):
 *
 * <pre>
 * gpuaas.budget-commands (key tenant) ─► budget (BudgetProcessor; stores budget-tenants: a TenantSummary per tenant,
 *                                                budget-items: its counted bookings, holds and key uses one by one;
 *                                                budget-ledgers: the old one-value layout, read once per tenant)
 *     ├─► gpuaas.booking-commands (key pool): the request with what was set aside for it
 *     ├─► gpuaas.booking-events (key booking id): BookingRejected BUDGET_EXCEEDED with the figures
 *     ├─► gpuaas.budgets (key tenant/yyyy-MM): TenantBudget after every change
 *     └─► gpuaas.notices (key tenant/yyyy-MM): BudgetThresholdReached, once each
 * gpuaas.booking-events ─► budget-outcomes (re-key by tenant) ─► gpuaas.budget-commands: BookingOutcome
 * </pre>
 */
public final class BudgetTopology {

    public static final String SOURCE = "budget-commands";
    public static final String PROCESSOR = "budget";
    /** The old layout (one {@link TenantLedger} per tenant): only read, once per tenant, into the two below. */
    public static final String STORE = "budget-ledgers";
    /** Key tenant: its {@link TenantSummary}. */
    public static final String SUMMARY_STORE = "budget-tenants";
    /** Key tenant, NUL, kind and id: one {@link BudgetItem} (see {@link StoreLedger}). */
    public static final String ITEM_STORE = "budget-items";

    public static final String FORWARD_SINK = "budget-forward";
    public static final String REFUSAL_SINK = "budget-refusals";
    public static final String STATE_SINK = "budget-states";
    public static final String NOTICE_SINK = "budget-notices";
    public static final String EVENTS_SOURCE = "budget-booking-events";
    public static final String REKEY = "budget-outcomes";
    public static final String OUTCOME_SINK = "budget-outcomes-sink";

    private BudgetTopology() {}

    public static Topology addTo(Topology topology, String prefix, BudgetDecider decider) {
        topology.addSource(
                SOURCE,
                Serdes.String().deserializer(),
                EventSerdes.valueDeserializer(Topics.BUDGET_COMMANDS),
                Topics.BUDGET_COMMANDS.name(prefix));
        topology.addProcessor(PROCESSOR, () -> new BudgetProcessor(decider), SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(STORE), Serdes.String(), new JsonSerde<>(TenantLedger.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SUMMARY_STORE),
                        Serdes.String(),
                        new JsonSerde<>(TenantSummary.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(ITEM_STORE), Serdes.String(), new JsonSerde<>(BudgetItem.class)),
                PROCESSOR);
        topology.addSink(
                FORWARD_SINK,
                Topics.BOOKING_COMMANDS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.BOOKING_COMMANDS.valueSerde()),
                PROCESSOR);
        topology.addSink(
                REFUSAL_SINK,
                Topics.BOOKING_EVENTS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.BOOKING_EVENTS.valueSerde()),
                PROCESSOR);
        topology.addSink(
                STATE_SINK,
                Topics.BUDGETS.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.BUDGETS.valueSerde()),
                PROCESSOR);
        topology.addSink(
                NOTICE_SINK,
                Topics.NOTICES.name(prefix),
                Serdes.String().serializer(),
                loosely(Topics.NOTICES.valueSerde()),
                PROCESSOR);
        topology.addSource(
                EVENTS_SOURCE,
                Serdes.String().deserializer(),
                EventSerdes.valueDeserializer(Topics.BOOKING_EVENTS),
                Topics.BOOKING_EVENTS.name(prefix));
        topology.addProcessor(REKEY, BudgetOutcomeProcessor::new, EVENTS_SOURCE);
        topology.addSink(
                OUTCOME_SINK,
                Topics.BUDGET_COMMANDS.name(prefix),
                Serdes.String().serializer(),
                Topics.BUDGET_COMMANDS.valueSerde().serializer(),
                REKEY);
        return topology;
    }

    @SuppressWarnings("unchecked")
    private static Serializer<Object> loosely(Serde<?> serde) {
        return (Serializer<Object>) serde.serializer();
    }
}
