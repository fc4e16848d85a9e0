package io.gpuaas.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.quota.QueueState;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The projections on a real broker: what the gateway cannot trust is dead-lettered with its key and reason and the
 * partition moves on; a null on a compacted topic is still a delete.
 */
@ExtendWith(KafkaBrokerExtension.class)
class UntrustedRecordsIT {

    private static GatewayHarness gateway;

    @BeforeAll
    static void start(KafkaBroker broker) throws Exception {
        gateway = new GatewayHarness(
                broker,
                "/dcgm/dcgm-exporter-t4.prom",
                Map.of("gpuaas.metrics-gateway.usage.namespace-tenants.team-u", "team-u"));
        gateway.awaitReady();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void shouldDeadLetterATombstoneAndAnOutOfRangeSampleAndChargeTheNextGoodOneWhenTheyShareAPartition()
            throws Exception {
        String key = "n9";
        gateway.sendGarbage(Topics.GPU_SAMPLES, key, null);
        gateway.send(Topics.GPU_SAMPLES, key, sample(Instant.now(), -5.0));
        gateway.send(Topics.GPU_SAMPLES, key, sample(Instant.now(), 0.6));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("gpuaas_tenant_gpu_utilization_ratio{tenant=\"team-u\"} 0.6"));
        // Both letters are on the dead-letter topic once a read from its beginning finds two for the key from the
        // projections (the ledger feed reads gpu-samples too and letters them under its own group).
        List<ConsumerRecord<byte[], byte[]>> all = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            all.clear();
            all.addAll(gateway.consumeMatching(
                    Topics.DEAD_LETTER.name(gateway.prefix),
                    new ByteArrayDeserializer(),
                    r -> key.equals(new String(r.key()))
                            && "metrics-gateway".equals(CloudEvents.header(r.headers(), DeadLetterPublisher.GROUP))));
            return all.size() >= 2;
        });
        assertThat(all)
                .extracting(UntrustedRecordsIT::reason)
                .containsExactlyInAnyOrder("TOMBSTONE", "SCHEMA_VIOLATION");
        assertThat(all).allSatisfy(letter -> assertThat(CloudEvents.header(letter.headers(), DeadLetterPublisher.TOPIC))
                .isEqualTo(Topics.GPU_SAMPLES.name(gateway.prefix)));
        // Once per feed that reads the topic: the sample feed and the ledger feed.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("gpuaas_dead_letter_records_total{reason=\"TOMBSTONE\",topic=\""
                        + Topics.GPU_SAMPLES.name(gateway.prefix) + "\"} 2.0"));
    }

    @Test
    void shouldForgetAQueueWithoutADeadLetterWhenItsCompactedStateIsDeleted() throws Exception {
        gateway.send(Topics.QUOTA_STATE, "lq/team-u/gone", localQueue("gone", 4));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(gateway.metrics())
                .contains("local_queue=\"gone\",namespace=\"team-u\"} 4.0"));

        gateway.sendGarbage(Topics.QUOTA_STATE, "lq/team-u/gone", null);

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(gateway.metrics()).doesNotContain("local_queue=\"gone\""));
        assertThat(gateway.metrics()).doesNotContain("topic=\"" + Topics.QUOTA_STATE.name(gateway.prefix) + "\"");
    }

    private static String reason(ConsumerRecord<byte[], byte[]> letter) {
        return CloudEvents.header(letter.headers(), DeadLetterPublisher.REASON);
    }

    private static GpuScrape sample(Instant time, double utilization) {
        return TestScrapes.attributed("n9", "GPU-u", "team-u", time, utilization);
    }

    private static QueueState localQueue(String name, int pending) {
        return QueueStates.localQueue("team-u", name, pending);
    }
}
