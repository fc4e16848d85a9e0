package io.gpuaas.metrics;

import static io.gpuaas.metrics.ledger.LedgerRecords.activated;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.completed;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolPrice;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Costs on a real broker: a pool catalog whose h200 price changes from the second day, bookings and samples of two
 * tenants (whole GPUs and 1g.18gb slices) become cost columns in the usage API (JSON and CSV), the cost gauge and the
 * fair-share report (JSON and CSV, admin and tenant); a second gateway started later replays the topics and serves
 * the same costs to the digit.
 */
@ExtendWith(KafkaBrokerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LedgerCostIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String D1 = "2026-11-20";
    private static final String D2 = "2026-11-21";
    private static final String DAYS = "/api/v1/usage?from=" + D1 + "&to=2026-11-22&groupBy=day";
    private static final String REPORT = "/api/v1/usage/fair-share?month=2026-11";
    private static final String ADMIN = GatewayHarness.token("ops", List.of(), List.of("admin"));
    private static final String TEAM_B = GatewayHarness.token("team-b", List.of("team-b"), List.of());
    private static final String CSV = "text/csv";
    private static final String JSON = "application/json";

    private static KafkaBroker broker;
    private static Path pools;
    private static GatewayHarness live;
    private static GatewayHarness rebuilt;

    @BeforeAll
    static void start(KafkaBroker kafka) throws Exception {
        broker = kafka;
        pools = Files.createTempFile("pools", ".json");
        Files.writeString(pools, pricedCatalog().toJson());
        live = new GatewayHarness(kafka, "/dcgm/dcgm-exporter-t4.prom", port -> settings());
        live.awaitReady();
        publishTheMix();
    }

    /** The shipped pools; h200 at 2.00 EUR a GPU-hour, 4.00 from D2 on; the MIG pools at 3.00. */
    private static PoolCatalog pricedCatalog() {
        PoolPrice two = new PoolPrice(new BigDecimal("2.00"), "EUR", null);
        PoolPrice four = new PoolPrice(new BigDecimal("4.00"), "EUR", LocalDate.parse(D2));
        PoolPrice three = new PoolPrice(new BigDecimal("3.00"), "EUR", null);
        return new PoolCatalog(PoolCatalog.load(Optional.empty()).pools().stream()
                .map(p -> p.withPrices(p.id().equals("h200") ? List.of(two, four) : List.of(three)))
                .toList());
    }

    private static Map<String, Object> settings() {
        Map<String, Object> props = new HashMap<>(LedgerRebuildIT.settings());
        props.put("gpuaas.pools-file", pools.toString());
        return props;
    }

    @AfterAll
    static void stop() throws Exception {
        if (rebuilt != null) {
            rebuilt.close();
        }
        if (live != null) {
            live.close();
        }
        Files.deleteIfExists(pools);
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    /**
     * team-a: 1 H200 from 23:00 to 01:00 across midnight, one GPU busy 23:50-00:10 (600 s each day). team-b: 7 ×
     * 1g.18gb 09:00-10:00 on D2, one slice busy 09:00-09:05 (300 s).
     */
    private static void publishTheMix() {
        Booking night = booking("bk-a-night", "team-a", "h200", 1, at(D1 + "T23:00:00Z"), at(D2 + "T01:00:00Z"));
        Booking slices =
                booking("bk-b-mig", "team-b", "h200-mig-1g.18gb", 7, at(D2 + "T09:00:00Z"), at(D2 + "T10:00:00Z"));
        List<Map.Entry<String, BookingEvent>> bookings = new ArrayList<>();
        for (Booking b : List.of(night, slices)) {
            bookings.add(Map.entry(b.id(), confirmed(b)));
            bookings.add(Map.entry(b.id(), activated(b)));
            bookings.add(Map.entry(b.id(), completed(b)));
        }
        publish(KafkaPrincipal.BOOKING_SERVICE, Topics.BOOKING_EVENTS, bookings);
        List<Map.Entry<String, GpuScrapeEvent>> samples = new ArrayList<>();
        for (Instant t = at(D1 + "T23:50:00Z"); !t.isAfter(at(D2 + "T00:10:00Z")); t = t.plusSeconds(15)) {
            samples.add(Map.entry("na", scrape("na", "GPU-a1", "h200", "team-a", t, 0.8)));
        }
        for (Instant t = at(D2 + "T09:00:00Z"); !t.isAfter(at(D2 + "T09:05:00Z")); t = t.plusSeconds(15)) {
            samples.add(Map.entry("nb", scrape("nb", "GPU-b1", "h200-mig-1g.18gb", "team-b", t, 0.9)));
        }
        // Past every booking by more than ledger.cut-lag, so the gauge's cut passes every figure.
        samples.add(Map.entry("nz", scrape("nz", "GPU-z1", "h200", "nobody", at(D2 + "T10:20:00Z"), 0.0)));
        publish(KafkaPrincipal.METRICS_GATEWAY, Topics.GPU_SAMPLES, samples);
    }

    private static <T> void publish(
            KafkaPrincipal who, TopicSpec<String, T> topic, List<Map.Entry<String, T>> records) {
        Map<String, Object> props =
                new HashMap<>(broker.serviceCredentials(who.userName(), KafkaAccess.acls(who, live.prefix)));
        props.put("bootstrap.servers", broker.bootstrapServers());
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(
                props, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
            for (Map.Entry<String, T> record : records) {
                producer.send(new ProducerRecord<>(topic.name(live.prefix), record.getKey(), record.getValue()))
                        .get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + topic.name(live.prefix) + " as " + who, e);
        }
    }

    private static JsonNode json(GatewayHarness gateway, String path, String token) throws Exception {
        HttpResponse<String> response = gateway.get(path, token, JSON);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.mapper().readTree(response.body());
    }

    private static JsonNode find(JsonNode rows, String... fieldValues) {
        for (JsonNode row : rows) {
            boolean all = true;
            for (int i = 0; i < fieldValues.length; i += 2) {
                all &= row.path(fieldValues[i]).asText().equals(fieldValues[i + 1]);
            }
            if (all) {
                return row;
            }
        }
        throw new AssertionError("no row " + List.of(fieldValues) + " in " + rows);
    }

    private static void assertNumbers(JsonNode row, Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String name = (String) namesAndValues[i];
            assertThat(row.get(name).asDouble()).as(name + " of " + row).isEqualTo((double) namesAndValues[i + 1]);
        }
    }

    @Test
    @Order(1)
    void shouldPriceEachDayRowAtItsPoolsPriceOfThatDayWhenTheMixHasBeenPublished() {
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode days = json(live, DAYS, ADMIN);
            assertThat(days.get("currency").asText()).isEqualTo("EUR");
            // team-a, D1: 1 GPU-hour booked at 2.00; busy 600 s = 0.166667 GPU-h × 2 = 0.333334.
            assertNumbers(
                    find(days.get("rows"), "tenant", "team-a", "day", D1),
                    "booked",
                    1.0,
                    "bookedCost",
                    2.0,
                    "busyCost",
                    0.333334,
                    "idleCost",
                    0.0);
            // team-a, D2: the same hours at the new 4.00.
            assertNumbers(
                    find(days.get("rows"), "tenant", "team-a", "day", D2),
                    "booked",
                    1.0,
                    "bookedCost",
                    4.0,
                    "busyCost",
                    0.666668);
            // team-b, D2: 7 × 1/7 × 1 h = 1 GPU-hour at 3.00; busy 300 s of a 1/7 slice = 0.011905 × 3 = 0.035715.
            assertNumbers(
                    find(days.get("rows"), "tenant", "team-b", "pool", "h200-mig-1g.18gb"),
                    "booked",
                    1.0,
                    "busy",
                    0.011905,
                    "bookedCost",
                    3.0,
                    "busyCost",
                    0.035715);
        });
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(live.get(DAYS, ADMIN, CSV).body())
                        .startsWith("tenant,day,pool,booked,admitted,busy,idle,reclaimed,released,"
                                + "booked_cost,busy_cost,idle_cost\r\n")
                        .contains("team-a," + D2 + ",h200,1.000000,0.000000,0.166667,0.000000,0.000000,0.000000,"
                                + "4.000000,0.666668,0.000000\r\n"));
    }

    @Test
    @Order(2)
    void shouldReportTheMonthPerTenantWithItsShareOfTheFleetsUseAndNoBudgetYet() throws Exception {
        JsonNode report = json(live, REPORT, ADMIN);
        assertThat(report.get("month").asText()).isEqualTo("2026-11");
        assertThat(report.get("currency").asText()).isEqualTo("EUR");
        // team-a used 0.333334 of the fleet's 0.345239 GPU-hours, team-b 0.011905.
        JsonNode a = find(report.get("rows"), "tenant", "team-a");
        assertNumbers(a, "booked", 2.0, "used", 0.333334, "idle", 0.0, "bookedCost", 6.0, "usedCost", 1.000002);
        assertNumbers(a, "usedShare", 0.965517);
        assertNumbers(find(report.get("rows"), "tenant", "team-b"), "usedShare", 0.034483, "bookedCost", 3.0);
        assertNumbers(report.get("fleet"), "used", 0.345239, "bookedCost", 9.0);
        assertThat(a.has("budget")).as("no budgets yet").isFalse();

        assertThat(live.get(REPORT, ADMIN, CSV).body())
                .isEqualTo("tenant,month,booked,used,idle,booked_cost,used_cost,idle_cost,currency,used_share,budget,"
                        + "budget_share\r\n"
                        + "team-a,2026-11,2.000000,0.333334,0.000000,6.000000,1.000002,0.000000,EUR,0.965517,,\r\n"
                        + "team-b,2026-11,1.000000,0.011905,0.000000,3.000000,0.035715,0.000000,EUR,0.034483,,\r\n");
        assertThat(live.get(REPORT + "&tenant=team-b", ADMIN, CSV).body())
                .doesNotContain("team-a")
                .contains("team-b");
    }

    @Test
    @Order(3)
    void shouldShowATenantOnlyItsOwnRowAndRefuseOthersAndBadMonths() throws Exception {
        JsonNode own = json(live, REPORT, TEAM_B);
        assertThat(own.get("rows")).singleElement().satisfies(r -> {
            assertThat(r.get("tenant").asText()).isEqualTo("team-b");
            assertThat(r.get("usedShare").asDouble()).isEqualTo(0.034483);
        });
        assertThat(live.get(REPORT, TEAM_B, CSV).body()).contains("team-b").doesNotContain("team-a");
        assertThat(live.get(REPORT + "&tenant=team-a", TEAM_B, JSON).statusCode())
                .isEqualTo(403);
        assertThat(live.get(REPORT, null, JSON).statusCode()).isEqualTo(401);
        for (String bad :
                List.of("", "?month=2026-13", "?month=november", "?month=2026-11-01", "?month=%2B999999999-12")) {
            HttpResponse<String> response = live.get("/api/v1/usage/fair-share" + bad, ADMIN, JSON);
            assertThat(response.statusCode()).as(bad).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type"))
                    .as(bad)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        }
    }

    @Test
    @Order(4)
    void shouldPublishTheCostGaugePerTenantPoolAndKindWithTheCurrency() {
        await().atMost(WAIT).untilAsserted(() -> assertThat(live.metrics())
                .contains("# TYPE gpuaas_ledger_cost gauge")
                .contains("gpuaas_ledger_cost{kind=\"booked\",pool=\"h200\",tenant=\"team-a\",currency=\"EUR\"} 6.0")
                .contains("gpuaas_ledger_cost{kind=\"busy\",pool=\"h200-mig-1g.18gb\",tenant=\"team-b\","
                        + "currency=\"EUR\"} 0.035715")
                .doesNotContain("bk-a-night"));
    }

    @Test
    @Order(5)
    void shouldServeTheSameCostsFromASecondInstanceThatReplayedTheTopicsFromTheStart() throws Exception {
        rebuilt = new GatewayHarness(broker, live.prefix, "/dcgm/dcgm-exporter-t4.prom", port -> settings());
        rebuilt.awaitReady();

        await().atMost(WAIT).untilAsserted(() -> {
            for (String path : List.of(DAYS, REPORT, REPORT + "&tenant=team-a")) {
                for (String accept : List.of(JSON, CSV)) {
                    assertThat(rebuilt.get(path, ADMIN, accept).body())
                            .as(path + " as " + accept)
                            .isEqualTo(live.get(path, ADMIN, accept).body())
                            .contains("team-a");
                }
            }
            assertThat(rebuilt.get(REPORT, TEAM_B, CSV).body())
                    .isEqualTo(live.get(REPORT, TEAM_B, CSV).body());
            assertThat(costLines(rebuilt.metrics()))
                    .isEqualTo(costLines(live.metrics()))
                    .hasSize(6);
        });
    }

    private static List<String> costLines(String exposition) {
        return exposition
                .lines()
                .filter(l -> l.startsWith("gpuaas_ledger_cost{"))
                .toList();
    }
}
