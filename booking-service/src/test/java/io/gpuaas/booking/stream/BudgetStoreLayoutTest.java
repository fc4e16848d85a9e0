package io.gpuaas.booking.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.budget.BudgetDecider;
import io.gpuaas.booking.budget.TenantLedger;
import io.gpuaas.booking.budget.TenantSummary;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.BudgetCommand.BookingOutcome.Outcome;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The budget stage's state layout through its topology: a summary per tenant and one item per counted booking, hold
 * and key use, the items of one tenant apart from another's; a tenant stored in the old one-value layout is read once
 * into the new one and decided on as before.
 */
class BudgetStoreLayoutTest {

    private static final Instant NOW = Instant.parse("2030-01-10T08:00:00Z");
    private static final Caller ALICE = new Caller("alice", "team-a", false);
    private static final Caller ADMIN = new Caller("root", "platform", true);
    private static final PoolCatalog POOLS =
            new PoolCatalog(List.of(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null)));
    private final BudgetDecider decider = new BudgetDecider(POOLS, BookingPolicy.DEFAULT);

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, BudgetCommand> commands;
    private TestOutputTopic<String, BookingEvent> refusals;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "budget-layout-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        driver = new TopologyTestDriver(BudgetTopology.addTo(new Topology(), "gpuaas.", decider), props, NOW);
        commands = driver.createInputTopic(
                "gpuaas.budget-commands",
                Serdes.String().serializer(),
                Topics.BUDGET_COMMANDS.valueSerde().serializer());
        refusals = driver.createOutputTopic(
                "gpuaas.booking-events",
                Serdes.String().deserializer(),
                Topics.BOOKING_EVENTS.valueSerde().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void aTenantsStateIsASummaryAndOneItemPerBookingHoldAndKey() {
        for (String tenant : List.of("team-a", "team-ab")) {
            commands.pipeInput(tenant, budget(tenant, "100"), NOW);
            commands.pipeInput(tenant, create(tenant, "r1", "b1", "key-1"), NOW);
            commands.pipeInput(tenant, confirmed(tenant, "r1", "b1"), NOW);
            commands.pipeInput(tenant, create(tenant, "r2", "b2", null), NOW);
        }

        KeyValueStore<String, TenantSummary> summaries = driver.getKeyValueStore(BudgetTopology.SUMMARY_STORE);
        assertThat(summaries.get("team-a").booked("2030-01").gpuHours()).isEqualByComparingTo("6");
        assertThat(summaries.get("team-a").held("2030-01").gpuHours()).isEqualByComparingTo("6");
        assertThat(itemKeys("team-a"))
                .containsExactly(
                        StoreLedger.itemKey("team-a", 'b', "b1"),
                        StoreLedger.itemKey("team-a", 'h', "r2"),
                        StoreLedger.itemKey("team-a", 'k', "team-a\u0000key-1"));
        KeyValueStore<String, BudgetItem> items = driver.getKeyValueStore(BudgetTopology.ITEM_STORE);
        assertThat(items.get(StoreLedger.itemKey("team-a", 'b', "b1")).booking().booked())
                .isTrue();
        assertThat(itemKeys("team-ab")).hasSize(3);
    }

    @Test
    void aTenantInTheOldLayoutIsReadOnceIntoTheNewOne() {
        // What the stage stored before the split: one TenantLedger, 6 of 10 GPU-hours booked.
        TenantLedger old =
                decider.decide(budget("team-a", "10"), (TenantLedger) null, NOW).ledger();
        old = decider.decide(create("team-a", "r1", "b1", null), old, NOW).ledger();
        old = decider.decide(confirmed("team-a", "r1", "b1"), old, NOW).ledger();
        KeyValueStore<String, TenantLedger> legacy = driver.getKeyValueStore(BudgetTopology.STORE);
        legacy.put("team-a", old);

        commands.pipeInput("team-a", create("team-a", "r2", "b2", null), NOW.plusSeconds(1));

        BookingEvent.BookingRejected refusal = (BookingEvent.BookingRejected) refusals.readValue();
        assertThat(refusal.reason()).isEqualTo("BUDGET_EXCEEDED");
        assertThat(refusal.budget().booked()).isEqualByComparingTo("6");
        assertThat(legacy.get("team-a"))
                .as("read once, then gone from the old store")
                .isNull();
        KeyValueStore<String, TenantSummary> summaries = driver.getKeyValueStore(BudgetTopology.SUMMARY_STORE);
        assertThat(summaries.get("team-a").booked("2030-01").gpuHours()).isEqualByComparingTo("6");
        assertThat(itemKeys("team-a")).containsExactly(StoreLedger.itemKey("team-a", 'b', "b1"));
    }

    private List<String> itemKeys(String tenant) {
        KeyValueStore<String, BudgetItem> items = driver.getKeyValueStore(BudgetTopology.ITEM_STORE);
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, BudgetItem> it = items.all()) {
            while (it.hasNext()) {
                KeyValue<String, BudgetItem> next = it.next();
                if (next.key.startsWith(tenant + StoreLedger.SEPARATOR)) {
                    keys.add(next.key);
                }
            }
        }
        return keys;
    }

    private static BudgetCommand.SetBudget budget(String tenant, String limit) {
        return new BudgetCommand.SetBudget(
                "set", ADMIN, tenant, "2030-01", TenantBudget.Unit.GPU_HOURS, new BigDecimal(limit), null, NOW);
    }

    private static BudgetCommand.HoldCreate create(String tenant, String request, String id, String key) {
        Instant start = NOW.plus(Duration.ofHours(2));
        return new BudgetCommand.HoldCreate(
                tenant,
                new BookingCommand.CreateBooking(
                        request,
                        key,
                        new Caller(ALICE.subject(), tenant, false),
                        "h200",
                        id,
                        tenant,
                        2,
                        start,
                        start.plus(Duration.ofHours(3)),
                        null,
                        NOW));
    }

    private static BudgetCommand.BookingOutcome confirmed(String tenant, String request, String id) {
        Instant start = NOW.plus(Duration.ofHours(2));
        Booking booking = new Booking(
                id,
                tenant,
                tenant,
                "h200",
                "h200",
                "nvidia.com/gpu",
                2,
                start,
                start.plus(Duration.ofHours(3)),
                null,
                BookingState.CONFIRMED,
                "alice",
                NOW,
                NOW,
                1,
                null);
        return new BudgetCommand.BookingOutcome(tenant, request, id, Outcome.DECIDED, List.of(booking), NOW);
    }
}
