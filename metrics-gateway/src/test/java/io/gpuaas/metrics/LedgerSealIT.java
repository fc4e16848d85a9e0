package io.gpuaas.metrics;

import static io.gpuaas.metrics.ledger.LedgerRecords.booking;
import static io.gpuaas.metrics.ledger.LedgerRecords.completed;
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
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sealed days on a real broker: replica A folds a day whole and seals it on {@code gpuaas.usage-ledger}; the
 * gpu-samples of that day are then deleted (as retention would), A stops, and replica B, which never saw them, takes
 * over: the topic keeps A's figures and B serves them, not its own lower fold.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LedgerSealIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String D1 = "2026-11-20";
    private static final String KEY = "team-s/" + D1;
    private static final String QUERY = "/api/v1/usage?from=" + D1 + "&to=2026-11-21";
    private static final String ADMIN = GatewayHarness.token("ops", List.of(), List.of("admin"));

    static Map<String, Object> settings() {
        Map<String, Object> props = new HashMap<>();
        props.put("gpuaas.metrics-gateway.scrape.targets", "http://127.0.0.1:1/metrics");
        props.put("gpuaas.metrics-gateway.usage.rollups", false);
        props.put("gpuaas.metrics-gateway.ledger.publish-interval", "300ms");
        props.put("gpuaas.metrics-gateway.ledger.refresh", "200ms");
        props.put("gpuaas.metrics-gateway.projections.backoff-max", "1s");
        return props;
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    @Test
    void shouldKeepAndServeTheSealedFiguresWhenANewLeaderCannotSeeTheDaysSamplesAnymore(KafkaBroker broker)
            throws Exception {
        GatewayHarness a = new GatewayHarness(broker, "/dcgm/dcgm-exporter-t4.prom", p -> settings());
        String prefix = a.prefix;
        GatewayHarness b = null;
        boolean aRunning = true;
        try {
            a.awaitReady();
            Booking day = booking("bk-s", "team-s", "h200", 1, at(D1 + "T10:00:00Z"), at(D1 + "T12:00:00Z"));
            a.send(Topics.BOOKING_EVENTS, day.id(), confirmed(day));
            a.send(Topics.BOOKING_EVENTS, day.id(), completed(day));
            // One GPU busy 10:00-10:10, 41 readings 15 s apart: 40 gaps of 15 s = 600 s = 0.166667 GPU-hours
            // (the last reading's gap is charged only by the device's next reading, which never comes).
            for (Instant t = at(D1 + "T10:00:00Z"); !t.isAfter(at(D1 + "T10:10:00Z")); t = t.plusSeconds(15)) {
                a.send(Topics.GPU_SAMPLES, "ns", (GpuScrapeEvent) scrape("ns", "GPU-s1", "h200", "team-s", t, 0.9));
            }
            await().atMost(WAIT).untilAsserted(() -> assertThat(busy(a, "day")).isEqualTo(0.166667));

            // The next day goes on: 02:00 is past the day's end plus ledger.seal-after (1 h), so A seals it.
            a.send(Topics.GPU_SAMPLES, "nt", (GpuScrapeEvent)
                    scrape("nt", "GPU-t1", "h200", "team-s", at("2026-11-21T02:00:00Z"), 0.9));
            await().atMost(WAIT).untilAsserted(() -> assertThat(lastRecord(a))
                    .satisfies(r -> assertThat(r.isSealed()).isTrue())
                    .satisfies(r -> assertThat(r.total().busy()).isEqualTo(0.166667)));

            deleteAllSamples(broker, prefix);
            a.send(Topics.GPU_SAMPLES, "nt", (GpuScrapeEvent)
                    scrape("nt", "GPU-t1", "h200", "team-s", at("2026-11-21T02:00:15Z"), 0.9));
            a.close();
            aRunning = false;

            b = new GatewayHarness(broker, prefix, "/dcgm/dcgm-exporter-t4.prom", p -> settings());
            b.awaitReady();
            GatewayHarness replica = b;
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(busy(replica, "day")).as("day view").isEqualTo(0.166667);
                assertThat(busy(replica, "booking")).as("booking view").isEqualTo(0.166667);
                assertThat(replica.metrics())
                        .contains("gpuaas_ledger_gpu_hours{kind=\"busy\",pool=\"h200\",tenant=\"team-s\"} 0.166667");
            });
            TimeUnit.SECONDS.sleep(2); // several publish intervals of the new leader
            assertThat(lastRecord(b))
                    .as("the topic still holds A's sealed figures")
                    .satisfies(r -> assertThat(r.isSealed()).isTrue())
                    .satisfies(r -> assertThat(r.total().busy()).isEqualTo(0.166667));
        } finally {
            if (b != null) {
                b.close();
            }
            if (aRunning) {
                a.close();
            }
        }
    }

    /** team-s's busy GPU-hours on D1: its day row, or its one booking's row. */
    private static double busy(GatewayHarness gateway, String groupBy) throws Exception {
        HttpResponse<String> response = gateway.get(QUERY + "&groupBy=" + groupBy, ADMIN, "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode rows = Json.mapper().readTree(response.body()).get("rows");
        assertThat(rows).as(response.body()).hasSize(1);
        return rows.get(0).get("busy").asDouble();
    }

    /** The last record of team-s's D1 on gpuaas.usage-ledger. */
    private static UsageDaily lastRecord(GatewayHarness gateway) {
        List<ConsumerRecord<byte[], UsageLedgerEvent>> records = gateway.consumeAll(
                Topics.USAGE_LEDGER.name(gateway.prefix),
                Topics.USAGE_LEDGER.valueSerde().deserializer(),
                Duration.ofSeconds(2));
        UsageDaily last = null;
        for (ConsumerRecord<byte[], UsageLedgerEvent> record : records) {
            if (KEY.equals(new String(record.key()))) {
                last = (UsageDaily) record.value();
            }
        }
        assertThat(last).as("a record of " + KEY).isNotNull();
        return last;
    }

    /** What retention does to old samples: the log start of every gpu-samples partition moves to its end. */
    private static void deleteAllSamples(KafkaBroker broker, String prefix) throws Exception {
        String topic = Topics.GPU_SAMPLES.name(prefix);
        try (Admin admin = broker.admin()) {
            int partitions = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, RecordsToDelete> delete =
                    admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).entrySet().stream()
                            .collect(Collectors.toMap(
                                    Map.Entry::getKey,
                                    e -> RecordsToDelete.beforeOffset(
                                            e.getValue().offset())));
            admin.deleteRecords(delete).all().get(10, TimeUnit.SECONDS);
        }
    }
}
