package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reclaim pipeline's source on a real broker: a tombstone and a scrape with one device whose utilization is below
 * the schema's minimum, both on the node's partition ahead of a good scrape, are dead-lettered with their key and
 * reason, and the good scrape behind them is still read.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class UntrustedSamplesIT {

    static final IdlePolicy POLICY =
            new IdlePolicy(0.05, Duration.ofSeconds(2), Duration.ofMillis(200), 0.9, Duration.ZERO, true);
    static final String NODE = "node-untrusted";

    @Test
    void shouldDeadLetterATombstoneAndAScrapeWithAnOutOfRangeDeviceAndReadTheNextGoodOneWhenTheyShareAPartition(
            KafkaBroker broker, KubernetesApi api) throws Exception {
        try (ReclaimerHarness harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
                KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(
                        broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            String topic = Topics.GPU_SAMPLES.name(harness.prefix);
            GpuScrape.Device healthy = device("GPU-healthy", 0.3);
            GpuScrape good = new GpuScrape(Instant.now(), NODE, "10.0.0.1:9400", List.of(device("GPU-untrusted", 0.3)));
            // One device out of range spoils the record: nothing says which of its other values to trust.
            GpuScrape negative =
                    new GpuScrape(good.time(), NODE, "10.0.0.1:9400", List.of(healthy, device("GPU-untrusted", -5.0)));
            RecordHeaders headers = new RecordHeaders();
            byte[] body = Topics.GPU_SAMPLES.valueSerde().serializer().serialize(topic, headers, negative);
            byte[] key = NODE.getBytes(StandardCharsets.UTF_8);

            raw.send(new ProducerRecord<>(topic, null, key, null)).get();
            raw.send(new ProducerRecord<>(topic, null, key, body, headers)).get();
            harness.send(good);

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                            count(harness.registry(), "gpuaas_reclaim_samples", "result", "unattributed"))
                    .isEqualTo(1.0));
            List<ConsumerRecord<byte[], byte[]>> letters = deadLetters(broker, harness.prefix, topic, 2);
            assertThat(letters).allSatisfy(letter -> assertThat(letter.key()).isEqualTo(key));
            assertThat(letters)
                    .extracting(letter -> header(letter, DeadLetterPublisher.REASON))
                    .containsExactly("TOMBSTONE", "SCHEMA_VIOLATION");
            assertThat(header(letters.get(1), DeadLetterPublisher.ERROR)).contains("utilization");
            assertThat(letters.get(1).value()).isEqualTo(body);
            assertThat(count(harness.registry(), "gpuaas_dead_letter_records", "reason", "TOMBSTONE"))
                    .isEqualTo(1.0);
        }
    }

    private static GpuScrape.Device device(String uuid, double utilization) {
        return new GpuScrape.Device(
                uuid,
                0,
                "NVIDIA H200",
                null,
                null,
                null,
                null,
                null,
                null,
                utilization,
                "GR_ENGINE_ACTIVE",
                10.0,
                20.0,
                100.0);
    }

    /** The first {@code n} dead letters read from {@code source}, in the order they were written. */
    static List<ConsumerRecord<byte[], byte[]>> deadLetters(KafkaBroker broker, String prefix, String source, int n) {
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                broker.clientProperties(), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            String topic = Topics.DEAD_LETTER.name(prefix);
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (source.equals(header(r, DeadLetterPublisher.TOPIC))) {
                        letters.add(r);
                    }
                });
                return letters.size() >= n;
            });
        }
        letters.sort((a, b) -> Long.compare(
                Long.parseLong(header(a, DeadLetterPublisher.OFFSET)),
                Long.parseLong(header(b, DeadLetterPublisher.OFFSET))));
        return letters;
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    static double count(PrometheusRegistry registry, String counter, String label, String value) {
        for (MetricSnapshot snapshot : registry.scrape()) {
            if (snapshot instanceof CounterSnapshot c
                    && c.getMetadata().getName().equals(counter)) {
                return c.getDataPoints().stream()
                        .filter(p -> value.equals(p.getLabels().get(label)))
                        .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                        .sum();
            }
        }
        return 0;
    }
}
