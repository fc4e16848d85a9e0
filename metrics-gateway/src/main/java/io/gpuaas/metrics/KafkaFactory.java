package io.gpuaas.metrics;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.metrics.PublishCounters;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The Kafka clients of metrics-gateway, on the shared idempotent/acks=all settings of the service kit. */
public final class KafkaFactory {

    private KafkaFactory() {}

    /** Records come encoded from {@link GpuScrapeCodec.Writer#record}: the producer itself only sends bytes. */
    public static Producer<byte[], byte[]> sampleProducer(KafkaClients kafka) {
        return new KafkaProducer<>(sampleProducerConfig(kafka), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The kit's idempotent {@code acks=all} settings with the batching the GpuScrape stream needs. */
    public static Map<String, Object> sampleProducerConfig(KafkaClients kafka) {
        Map<String, Object> config = kafka.producerConfig("metrics-gateway-gpu-samples");
        // 1,250 node scrapes per interval arrive in bursts: larger batches keep the broker request rate low.
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        return config;
    }

    public static GpuScrapePublisher scrapePublisher(KafkaClients kafka, PublishCounters counters) {
        return new GpuScrapePublisher(
                sampleProducer(kafka),
                kafka.topic(Topics.GPU_SAMPLES),
                new GpuScrapeCodec(CloudEventHeaders.of(MetricsGatewayApplication.SOURCE)),
                counters);
    }

    private static final Duration LOOKUP = Duration.ofSeconds(10);

    public static Producer<String, TenantUtilizationEvent> rollupProducer(KafkaClients kafka) {
        return new KafkaProducer<>(
                kafka.producerConfig("metrics-gateway-rollups"),
                Topics.TENANT_UTILIZATION.keySerde().serializer(),
                Topics.TENANT_UTILIZATION.valueSerde().serializer());
    }

    public static Producer<String, UsageLedgerEvent> ledgerProducer(KafkaClients kafka) {
        return new KafkaProducer<>(
                kafka.producerConfig("metrics-gateway-usage-ledger"),
                Topics.USAGE_LEDGER.keySerde().serializer(),
                Topics.USAGE_LEDGER.valueSerde().serializer());
    }

    /**
     * A consumer for a projection replica: the kit's replica settings (no group, read_committed, no topic
     * auto-creation), and fetches that wait at most 100 ms.
     */
    public static Consumer<byte[], byte[]> projectionConsumer(KafkaClients kafka, String clientId) {
        Map<String, Object> config = kafka.consumerConfig(null);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // A Workload change must reach /metrics within a second: never let an idle fetch park for long.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * The ledger inputs whose topic's log no longer starts at offset 0 (retention or a deletion removed its first
     * records): the fold sees those only from the earliest event it read. A topic missing yet is complete.
     */
    public static Set<LedgerInputs.Input> truncatedInputs(KafkaClients kafka) {
        Map<LedgerInputs.Input, String> topics = Map.of(
                LedgerInputs.Input.BOOKING_EVENTS, kafka.topic(Topics.BOOKING_EVENTS),
                LedgerInputs.Input.KUEUE_WORKLOADS, kafka.topic(Topics.KUEUE_WORKLOADS),
                LedgerInputs.Input.RECLAIM_EVENTS, kafka.topic(Topics.RECLAIM_EVENTS),
                LedgerInputs.Input.GPU_SAMPLES, kafka.topic(Topics.GPU_SAMPLES));
        Set<LedgerInputs.Input> truncated = EnumSet.noneOf(LedgerInputs.Input.class);
        try (Consumer<byte[], byte[]> consumer = projectionConsumer(kafka, "metrics-gateway-ledger-horizon")) {
            topics.forEach((input, topic) -> {
                List<TopicPartition> partitions = consumer.partitionsFor(topic, LOOKUP).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
                if (consumer.beginningOffsets(partitions, LOOKUP).values().stream()
                        .anyMatch(offset -> offset > 0)) {
                    truncated.add(input);
                }
            });
        }
        return truncated;
    }
}
