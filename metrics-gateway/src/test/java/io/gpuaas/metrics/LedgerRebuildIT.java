package io.gpuaas.metrics;

import static io.gpuaas.metrics.ledger.LedgerRecords.activated;
import static io.gpuaas.metrics.ledger.LedgerRecords.admitted;
import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.completed;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.finished;
import static io.gpuaas.metrics.ledger.LedgerRecords.reclaimed;
import static io.gpuaas.metrics.ledger.LedgerRecords.released;
import static io.gpuaas.metrics.ledger.LedgerRecords.resumed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Json;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.BookingEvent.BookingReleased.Reason;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.metrics.kafka.ProjectionFeeds;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ledger on a real broker with ACLs: bookings, Workloads, reclaims and samples of two tenants, published by
 * their producers' own Kafka users, become per-day and per-booking GPU-hours over HTTP, counters, and daily records;
 * a second gateway started later with empty state replays the topics and serves exactly the same ledger.
 */
@ExtendWith(KafkaBrokerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LedgerRebuildIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String D1 = "2026-11-20";
    private static final String D2 = "2026-11-21";
    private static final String RANGE = "from=" + D1 + "&to=2026-11-22";
    private static final String ADMIN = GatewayHarness.token("ops", List.of(), List.of("admin"));
    private static final String TEAM_B = GatewayHarness.token("team-b", List.of("team-b"), List.of());
    private static final String CSV = "text/csv";

    private static KafkaBroker broker;
    private static GatewayHarness live;
    private static GatewayHarness rebuilt;

    @BeforeAll
    static void start(KafkaBroker kafka) throws Exception {
        broker = kafka;
        live = new GatewayHarness(kafka, "/dcgm/dcgm-exporter-t4.prom", port -> settings());
        live.awaitReady();
        publishTheMix();
    }

    /** No scraping (the test publishes every sample), the daily records every half second. */
    static Map<String, Object> settings() {
        Map<String, Object> props = new HashMap<>();
        props.put("gpuaas.metrics-gateway.scrape.targets", "http://127.0.0.1:1/metrics");
        props.put("gpuaas.metrics-gateway.usage.rollups", false);
        props.put("gpuaas.metrics-gateway.ledger.publish-interval", "500ms");
        props.put("gpuaas.metrics-gateway.ledger.refresh", "200ms");
        // The mix is two days of history sent at once, topic after topic: far out of event-time order, so a day
        // would seal before its samples arrive. Sealing has its own test (LedgerSealIT); here no day seals.
        props.put("gpuaas.metrics-gateway.ledger.seal-after", "3650d");
        props.put("gpuaas.metrics-gateway.projections.backoff-max", "1s");
        return props;
    }

    @AfterAll
    static void stop() {
        if (rebuilt != null) {
            rebuilt.close();
        }
        if (live != null) {
            live.close();
        }
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    /**
     * team-a: 2 H200 from 23:00 to 01:00 across midnight, with a Workload of 2 admitted 23:10-00:40, one GPU busy
     * 23:50-00:10 and 1 GPU reclaimed 00:10-00:30; 2 × 1g.18gb 09:00-10:30 ended early at 10:00. team-b: 1 ×
     * 2g.35gb 09:00-11:00 released as a no-show at 09:15; 1 H200 12:00-13:00 with a Workload 12:00-12:30 and a GPU
     * idle 12:00-12:05.
     */
    private static void publishTheMix() {
        Booking night = booking("bk-a-night", "team-a", "h200", 2, at(D1 + "T23:00:00Z"), at(D2 + "T01:00:00Z"));
        Booking mig =
                booking("bk-a-mig", "team-a", "h200-mig-1g.18gb", 2, at(D2 + "T09:00:00Z"), at(D2 + "T10:30:00Z"));
        Booking noShow =
                booking("bk-b-noshow", "team-b", "h200-mig-2g.35gb", 1, at(D2 + "T09:00:00Z"), at(D2 + "T11:00:00Z"));
        Booking day = booking("bk-b-day", "team-b", "h200", 1, at(D2 + "T12:00:00Z"), at(D2 + "T13:00:00Z"));
        List<Map.Entry<String, BookingEvent>> bookings = new ArrayList<>();
        for (Booking b : List.of(night, mig, noShow, day)) {
            bookings.add(Map.entry(b.id(), confirmed(b)));
            bookings.add(Map.entry(b.id(), activated(b)));
        }
        bookings.add(Map.entry(night.id(), completed(night)));
        bookings.add(Map.entry(mig.id(), released(mig, Reason.ENDED_EARLY, at(D2 + "T10:00:00Z"))));
        bookings.add(Map.entry(noShow.id(), released(noShow, Reason.NO_SHOW, at(D2 + "T09:15:00Z"))));
        bookings.add(Map.entry(day.id(), completed(day)));
        publish(KafkaPrincipal.BOOKING_SERVICE, Topics.BOOKING_EVENTS, bookings);

        publish(
                KafkaPrincipal.QUOTA_PROJECTOR,
                Topics.KUEUE_WORKLOADS,
                List.<Map.Entry<String, WorkloadEvent>>of(
                        Map.entry("team-a/train", admitted("team-a", "train", "h200", 2, at(D1 + "T23:10:00Z"))),
                        Map.entry("team-a/train", finished("team-a", "train", "h200", 2, at(D2 + "T00:40:00Z"))),
                        Map.entry("team-b/job", admitted("team-b", "job", "h200", 1, at(D2 + "T12:00:00Z"))),
                        Map.entry("team-b/job", finished("team-b", "job", "h200", 1, at(D2 + "T12:30:00Z")))));
        publish(
                KafkaPrincipal.IDLE_RECLAIMER,
                Topics.RECLAIM_EVENTS,
                List.<Map.Entry<String, ReclaimEvent>>of(
                        Map.entry("team-a/RayCluster/ray", reclaimed("team-a", "ray", 1, at(D2 + "T00:10:00Z"))),
                        Map.entry("team-a/RayCluster/ray", resumed("team-a", "ray", at(D2 + "T00:30:00Z")))));
        List<Map.Entry<String, GpuScrapeEvent>> samples = new ArrayList<>();
        for (Instant t = at(D1 + "T23:50:00Z"); !t.isAfter(at(D2 + "T00:10:00Z")); t = t.plusSeconds(15)) {
            samples.add(Map.entry("na", scrape("na", "GPU-a1", "h200", "team-a", t, 0.8)));
        }
        for (Instant t = at(D2 + "T12:00:00Z"); !t.isAfter(at(D2 + "T12:05:00Z")); t = t.plusSeconds(15)) {
            samples.add(Map.entry("nb", scrape("nb", "GPU-b1", "h200", "team-b", t, 0.0)));
        }
        // A device no booking holds, 10 min after the last booking ends: the published records' cut (asOf less
        // ledger.cut-lag, 5 min) passes every figure, so they equal the day view.
        samples.add(Map.entry("nz", scrape("nz", "GPU-z1", "h200", "nobody", at(D2 + "T13:10:00Z"), 0.0)));
        publish(KafkaPrincipal.METRICS_GATEWAY, Topics.GPU_SAMPLES, samples);
    }

    /** Sends as {@code who}'s own Kafka user, with exactly its ACLs. */
    static <T> void publish(KafkaPrincipal who, TopicSpec<String, T> topic, List<Map.Entry<String, T>> records) {
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

    private static JsonNode json(GatewayHarness gateway, String query, String token) throws Exception {
        HttpResponse<String> response = gateway.get("/api/v1/usage?" + query, token, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.mapper().readTree(response.body());
    }

    private static JsonNode row(JsonNode body, String field, String value, String pool) {
        for (JsonNode row : body.get("rows")) {
            if (row.get(field).asText().equals(value)
                    && (pool == null || row.get("pool").asText().equals(pool))) {
                return row;
            }
        }
        throw new AssertionError("no row " + field + "=" + value + " " + pool + " in " + body);
    }

    private static JsonNode dayRow(JsonNode body, String tenant, String day, String pool) {
        for (JsonNode row : body.get("rows")) {
            if (row.get("tenant").asText().equals(tenant)
                    && row.get("day").asText().equals(day)
                    && row.get("pool").asText().equals(pool)) {
                return row;
            }
        }
        throw new AssertionError("no row " + tenant + " " + day + " " + pool + " in " + body);
    }

    private static void assertFigures(JsonNode row, double... expected) {
        String[] kinds = {"booked", "admitted", "busy", "idle", "reclaimed", "released"};
        for (int i = 0; i < kinds.length; i++) {
            assertThat(row.get(kinds[i]).asDouble()).as(kinds[i] + " of " + row).isEqualTo(expected[i]);
        }
    }

    @Test
    @Order(1)
    void shouldServeHandComputedGpuHoursPerTenantDayAndPerBookingWhenTheMixHasBeenPublished() {
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode days = json(live, RANGE + "&groupBy=day", ADMIN);
            // team-a, D1, h200: booked 2 GPUs × 1 h (23:00-24:00) = 2.0; admitted 2 × 50 min (23:10-24:00) =
            // 1.666667; busy: 40 readings 15 s apart from 23:50:00, each charged to the minute of its reading,
            // 600 s = 0.166667; nothing idle, reclaimed (00:10 is D2) or released.
            assertFigures(dayRow(days, "team-a", D1, "h200"), 2.0, 1.666667, 0.166667, 0, 0, 0);
            // team-a, D2, h200: booked 2 × 1 h = 2.0; admitted 2 × 40 min = 1.333333; busy 600 s = 0.166667;
            // reclaimed 1 GPU × 20 min (00:10-00:30) = 0.333333.
            assertFigures(dayRow(days, "team-a", D2, "h200"), 2.0, 1.333333, 0.166667, 0, 0.333333, 0);
            // team-a, D2, 1g.18gb (1/7 of an H200): booked 2 × 1/7 × 1.5 h = 0.428571; ended early at 10:00,
            // released 2 × 1/7 × 0.5 h = 0.142857.
            assertFigures(dayRow(days, "team-a", D2, "h200-mig-1g.18gb"), 0.428571, 0, 0, 0, 0, 0.142857);
            // team-b, D2, h200: booked 1.0; admitted 1 × 30 min = 0.5; idle 20 × 15 s = 300 s = 0.083333.
            assertFigures(dayRow(days, "team-b", D2, "h200"), 1.0, 0.5, 0, 0.083333, 0, 0);
            // team-b, D2, 2g.35gb (1/3: three fill an H200): booked 1 × 1/3 × 2 h = 0.666667; no-show at 09:15,
            // released 1/3 × 1.75 h = 0.583333.
            assertFigures(dayRow(days, "team-b", D2, "h200-mig-2g.35gb"), 0.666667, 0, 0, 0, 0, 0.583333);
        });
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode bookings = json(live, RANGE + "&groupBy=booking", ADMIN);
            JsonNode night = row(bookings, "bookingId", "bk-a-night", null);
            // Both days: booked 4.0, admitted 2 × 90 min = 3.0, busy 1200 s = 0.333333, reclaimed 0.333333.
            assertFigures(night, 4.0, 3.0, 0.333333, 0, 0.333333, 0);
            assertThat(row(bookings, "bookingId", "bk-a-mig", null)
                            .get("releaseReason")
                            .asText())
                    .isEqualTo("ENDED_EARLY");
            JsonNode noShow = row(bookings, "bookingId", "bk-b-noshow", null);
            assertThat(noShow.get("releaseReason").asText()).isEqualTo("NO_SHOW");
            assertThat(noShow.get("releasedAt").asText()).isEqualTo(D2 + "T09:15:00Z");
        });
    }

    @Test
    @Order(2)
    void shouldCountTheLedgerPerTenantAndPoolOnMetricsWithoutBookingIds() throws Exception {
        await().atMost(WAIT).untilAsserted(() -> assertThat(live.metrics())
                .contains("gpuaas_ledger_gpu_hours{kind=\"booked\",pool=\"h200\",tenant=\"team-a\"} 4.0")
                .contains("gpuaas_ledger_gpu_hours{kind=\"released\",pool=\"h200-mig-2g.35gb\","
                        + "tenant=\"team-b\"} 0.583333"));
        assertThat(live.metrics()).doesNotContain("bk-a-night").doesNotContain("bk-b-noshow");
    }

    @Test
    @Order(3)
    void shouldServeTheSameLedgerFromASecondInstanceThatReplayedTheTopicsFromTheStart() throws Exception {
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                        json(live, RANGE + "&groupBy=booking", ADMIN).get("rows"))
                .hasSize(4));
        rebuilt = new GatewayHarness(broker, live.prefix, "/dcgm/dcgm-exporter-t4.prom", port -> settings());
        rebuilt.awaitReady();

        // Ready before the ledger replayed (it does not gate readiness); the same bytes once it has.
        await().atMost(WAIT).untilAsserted(() -> {
            for (String groupBy : List.of("day", "booking")) {
                String query = "/api/v1/usage?" + RANGE + "&groupBy=" + groupBy;
                for (String accept : List.of("application/json", CSV)) {
                    String expected = live.get(query, ADMIN, accept).body();
                    assertThat(rebuilt.get(query, ADMIN, accept).body())
                            .as(groupBy + " as " + accept)
                            .isEqualTo(expected)
                            .contains("team-a", "team-b");
                }
            }
        });
    }

    @Test
    @Order(4)
    void shouldPublishDailyRecordsEqualToTheDayViewWhenAnSreReadsTheLedgerTopic() throws Exception {
        JsonNode days = json(live, RANGE + "&groupBy=day", ADMIN);
        Map<String, Map<String, UsageDaily.Figures>> fromHttp = new TreeMap<>();
        for (JsonNode row : days.get("rows")) {
            fromHttp.computeIfAbsent(
                            row.get("tenant").asText() + "/" + row.get("day").asText(), k -> new TreeMap<>())
                    .put(
                            row.get("pool").asText(),
                            new UsageDaily.Figures(
                                    row.get("booked").asDouble(),
                                    row.get("admitted").asDouble(),
                                    row.get("busy").asDouble(),
                                    row.get("idle").asDouble(),
                                    row.get("reclaimed").asDouble(),
                                    row.get("released").asDouble()));
        }
        assertThat(fromHttp).containsOnlyKeys("team-a/" + D1, "team-a/" + D2, "team-b/" + D2);

        Map<String, Map<String, UsageDaily.Figures>> fromTopic = new TreeMap<>();
        await().atMost(WAIT).untilAsserted(() -> {
            for (ConsumerRecord<byte[], UsageLedgerEvent> record : live.consumeAll(
                    Topics.USAGE_LEDGER.name(live.prefix),
                    Topics.USAGE_LEDGER.valueSerde().deserializer(),
                    Duration.ofSeconds(2))) {
                UsageDaily daily = (UsageDaily) record.value();
                assertThat(new String(record.key())).isEqualTo(UsageDaily.key(daily.tenant(), daily.day()));
                fromTopic.put(new String(record.key()), new TreeMap<>(daily.pools()));
            }
            assertThat(fromTopic).isEqualTo(fromHttp);
        });
    }

    @Test
    @Order(5)
    void shouldShowATenantOnlyItsOwnRowsAndRefuseBadRequests() throws Exception {
        JsonNode own = json(live, RANGE + "&groupBy=booking", TEAM_B);
        assertThat(own.get("rows"))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("tenant").asText()).isEqualTo("team-b"));
        String csv = live.get("/api/v1/usage?" + RANGE, TEAM_B, CSV).body();
        assertThat(csv).startsWith("tenant,day,pool,booked,").contains("team-b").doesNotContain("team-a");
        assertThat(live.get("/api/v1/usage?" + RANGE + "&groupBy=booking", TEAM_B, CSV)
                        .body())
                .contains("bk-b-noshow")
                .doesNotContain("bk-a-");

        assertThat(live.get("/api/v1/usage?" + RANGE, null, null).statusCode()).isEqualTo(401);
        assertThat(live.get("/api/v1/usage?" + RANGE + "&tenant=team-a", TEAM_B, null)
                        .statusCode())
                .isEqualTo(403);
        for (String bad : List.of(
                "to=2026-11-22",
                "from=2026-11-20&to=tomorrow",
                "from=2026-11-22&to=2026-11-20",
                "from=2020-01-01&to=2026-01-01",
                RANGE + "&groupBy=week")) {
            HttpResponse<String> response = live.get("/api/v1/usage?" + bad, ADMIN, null);
            assertThat(response.statusCode()).as(bad).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type"))
                    .as(bad)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        }
    }

    @Test
    @Order(6)
    void shouldDeadLetterUnreadableLedgerInputsAndFoldTheNextRecord() throws Exception {
        live.sendGarbage(Topics.BOOKING_EVENTS, "bk-garbage", "{not json".getBytes());
        WorkloadEvent.WorkloadObserved whole =
                (WorkloadEvent.WorkloadObserved) admitted("team-z", "half", "h200", 1, at(D2 + "T14:00:00Z"));
        WorkloadEvent half = new WorkloadEvent.WorkloadObserved(
                whole.namespace(),
                whole.name(),
                whole.uid(),
                whole.resourceVersion(),
                whole.queueName(),
                whole.clusterQueue(),
                null,
                null,
                true,
                whole.transition(),
                whole.conditions(),
                whole.podSets(),
                List.of(new WorkloadEvent.PodSetAdmission(
                        "main", 1, Map.of("nvidia.com/gpu", "h200"), Map.of("nvidia.com/gpu", "500m"))),
                null,
                whole.time());
        publish(KafkaPrincipal.QUOTA_PROJECTOR, Topics.KUEUE_WORKLOADS, List.of(Map.entry("team-z/half", half)));
        Booking later = booking("bk-z", "team-z", "h200", 1, at(D2 + "T14:00:00Z"), at(D2 + "T15:00:00Z"));
        publish(
                KafkaPrincipal.BOOKING_SERVICE,
                Topics.BOOKING_EVENTS,
                List.of(Map.entry(later.id(), confirmed(later))));

        for (String key : List.of("bk-garbage", "team-z/half")) {
            List<ConsumerRecord<byte[], byte[]>> letters = live.consumeMatching(
                    Topics.DEAD_LETTER.name(live.prefix),
                    new ByteArrayDeserializer(),
                    r -> key.equals(new String(r.key()))
                            && ProjectionFeeds.LEDGER_GROUP.equals(
                                    CloudEvents.header(r.headers(), DeadLetterPublisher.GROUP)));
            assertThat(letters).as(key).isNotEmpty();
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                        row(json(live, RANGE + "&groupBy=booking", ADMIN), "bookingId", "bk-z", null)
                                .get("booked")
                                .asDouble())
                .isEqualTo(1.0));
    }
}
