package io.gpuaas.metrics;

import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.confirmed;
import static io.gpuaas.metrics.ledger.LedgerRecords.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A leader change in the middle of a day on a real broker: replica A publishes the day's record up to its cut, the
 * samples before part of that are deleted (as retention would, unequally over the partitions: one loses nothing and
 * still holds the day before), A stops, and replica B, which cannot see the day whole, serves and publishes A's
 * figures plus its own from A's cut on (BASE + DELTA) instead of freezing the day at A's figures or taking its fold
 * alone for the whole day; the day is sealed with the sum only once it has ended.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LedgerRestartIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String DAY = "2026-11-20";
    private static final String KEY = "team-r/" + DAY;
    private static final String QUERY = "/api/v1/usage?from=" + DAY + "&to=2026-11-21";
    private static final String ADMIN = GatewayHarness.token("ops", List.of(), List.of("admin"));

    private static Instant at(String time) {
        return Instant.parse(DAY + "T" + time + "Z");
    }

    /** One busy reading of team-r's GPU every 15 s in {@code [from, to]}. */
    private static void busy(GatewayHarness gateway, Instant from, Instant to) {
        for (Instant t = from; !t.isAfter(to); t = t.plusSeconds(15)) {
            gateway.send(Topics.GPU_SAMPLES, "nr", (GpuScrapeEvent) scrape("nr", "GPU-r1", "h200", "team-r", t, 0.9));
        }
    }

    @Test
    void shouldAddTheNewLeadersOwnFiguresFromTheCutToTheOldLeadersRecordWhenItCannotSeeTheDayWhole(KafkaBroker broker)
            throws Exception {
        GatewayHarness a = new GatewayHarness(broker, "/dcgm/dcgm-exporter-t4.prom", p -> LedgerSealIT.settings());
        String prefix = a.prefix;
        GatewayHarness b = null;
        boolean aRunning = true;
        try {
            a.awaitReady();
            Booking held = booking("bk-r", "team-r", "h200", 1, at("10:00:00"), at("12:00:00"));
            a.send(Topics.BOOKING_EVENTS, held.id(), confirmed(held));
            // Devices no booking holds, on two other partitions: nq's from the day before (its partition loses
            // nothing), no's from 09:00 (its partition loses its first record).
            for (String time : List.of("2026-11-19T23:59:00Z", "2026-11-19T23:59:30Z")) {
                a.send(Topics.GPU_SAMPLES, "nq", (GpuScrapeEvent)
                        scrape("nq", "GPU-q1", "h200", "nobody", Instant.parse(time), 0.0));
            }
            for (String time : List.of("09:00:00", "09:30:00", "09:45:00")) {
                a.send(Topics.GPU_SAMPLES, "no", (GpuScrapeEvent)
                        scrape("no", "GPU-o1", "h200", "nobody", at(time), 0.0));
            }
            // 41 readings 10:00:00-10:10:00; A's cut is asOf 10:10 less ledger.cut-lag (5 min): the 20 gaps of 15 s
            // before 10:05 are 300 s busy.
            busy(a, at("10:00:00"), at("10:10:00"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(lastRecord(a)).satisfies(r -> {
                assertThat(r.cut()).isEqualTo(at("10:05:00"));
                assertThat(r.total().busy()).isEqualTo(0.083333);
                assertThat(r.total().booked()).as("[10:00, 10:05)").isEqualTo(0.083333);
                assertThat(r.isSealed()).isFalse();
            }));

            // nr keeps its readings from 10:05:00 on, no from 09:30, nq all: B's horizon is 10:05, A's cut.
            deleteRecords(broker, prefix, Map.of("nr", 20, "no", 1));
            a.close();
            aRunning = false;

            b = new GatewayHarness(broker, prefix, "/dcgm/dcgm-exporter-t4.prom", p -> LedgerSealIT.settings());
            b.awaitReady();
            GatewayHarness replica = b;
            // 10:10:15-10:20:00: B's cut is 10:15, and it folded the readings from A's cut (10:05) on: 600 s more.
            busy(b, at("10:10:15"), at("10:20:00"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(lastRecord(replica)).satisfies(r -> {
                    assertThat(r.cut()).isEqualTo(at("10:15:00"));
                    assertThat(r.total().busy()).as("A's 300 s + B's 600 s").isEqualTo(0.25);
                    assertThat(r.total().booked()).as("[10:00, 10:15)").isEqualTo(0.25);
                    assertThat(r.isSealed()).as("the day has not ended").isFalse();
                });
                assertThat(row(replica, "day").get("busy").asDouble())
                        .as("the API counts up to the last charged gap, not the cut")
                        .isEqualTo(0.333333);
                assertThat(row(replica, "day").get("booked").asDouble())
                        .as("the booked window whole, as for a day the fold sees")
                        .isEqualTo(2.0);
                assertThat(row(replica, "booking").get("busy").asDouble()).isEqualTo(0.333333);
            });

            // 01:00 the next day is the day's end plus ledger.seal-after (1 h): B seals it with the sum.
            b.send(Topics.GPU_SAMPLES, "nx", (GpuScrapeEvent)
                    scrape("nx", "GPU-x1", "h200", "nobody", Instant.parse("2026-11-21T01:00:00Z"), 0.0));
            await().atMost(WAIT)
                    .untilAsserted(() -> assertThat(lastRecord(replica)).satisfies(r -> {
                        assertThat(r.isSealed()).isTrue();
                        assertThat(r.total().busy()).isEqualTo(0.333333);
                        assertThat(r.total().booked()).isEqualTo(2.0);
                        assertThat(r.bookings()).singleElement().satisfies(d -> assertThat(d.bookingId())
                                .isEqualTo("bk-r"));
                    }));
        } finally {
            if (b != null) {
                b.close();
            }
            if (aRunning) {
                a.close();
            }
        }
    }

    /** team-r's one row on DAY, grouped by {@code groupBy}. */
    private static JsonNode row(GatewayHarness gateway, String groupBy) throws Exception {
        HttpResponse<String> response = gateway.get(QUERY + "&groupBy=" + groupBy, ADMIN, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode rows = Json.mapper().readTree(response.body()).get("rows");
        assertThat(rows).as(response.body()).hasSize(1);
        return rows.get(0);
    }

    /** The last record of team-r's DAY on gpuaas.usage-ledger. */
    private static UsageDaily lastRecord(GatewayHarness gateway) {
        List<ConsumerRecord<byte[], UsageLedgerEvent>> records = gateway.consumeAll(
                Topics.USAGE_LEDGER.name(gateway.prefix),
                Topics.USAGE_LEDGER.valueSerde().deserializer(),
                Duration.ofSeconds(2));
        UsageDaily last = null;
        for (ConsumerRecord<byte[], UsageLedgerEvent> record : records) {
            if (KEY.equals(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8))) {
                last = (UsageDaily) record.value();
            }
        }
        assertThat(last).as("a record of " + KEY).isNotNull();
        return last;
    }

    /** What retention does: the log start of gpu-samples moves past the first {@code n} records of each node's key. */
    private static void deleteRecords(KafkaBroker broker, String prefix, Map<String, Integer> firstOfNode)
            throws Exception {
        String topic = Topics.GPU_SAMPLES.name(prefix);
        try (Admin admin = broker.admin()) {
            int partitions = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .size();
            Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
            firstOfNode.forEach((node, n) -> delete.put(
                    new TopicPartition(topic, partitionOf(node, partitions)), RecordsToDelete.beforeOffset(n)));
            assertThat(delete).as("one partition per node").hasSize(firstOfNode.size());
            assertThat(partitionOf("nq", partitions))
                    .as("nq's partition loses nothing")
                    .isNotIn(firstOfNode.keySet().stream()
                            .map(node -> partitionOf(node, partitions))
                            .toList());
            admin.deleteRecords(delete).all().get(10, TimeUnit.SECONDS);
        }
    }

    /** The partition the producer's default partitioner picks for a key. */
    private static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
