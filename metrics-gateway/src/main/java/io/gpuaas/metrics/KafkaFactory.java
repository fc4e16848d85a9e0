package io.gpuaas.metrics;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.tenant.TenantUtilizationEvent;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.kafka.InputHorizon;
import io.gpuaas.metrics.metrics.PublishCounters;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The Kafka clients of metrics-gateway, on the shared idempotent/acks=all settings of the service kit; its producers
 * are micronaut-kafka's, closed with the context.
 */
public final class KafkaFactory {

    private KafkaFactory() {}

    /** The client id of the one producer of {@code gpuaas.gpu-samples}. */
    public static final String SAMPLE_PRODUCER = "metrics-gateway-gpu-samples";

    /** 1,250 node scrapes per interval arrive in bursts: larger batches keep the broker request rate low. */
    public static final Map<String, Object> SAMPLE_BATCHING = Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);

    /**
     * Records come encoded from {@link GpuScrapeCodec.Writer#record}: the producer itself only sends bytes. It is
     * micronaut-kafka's ({@link KafkaClients#producer}), with the kit's settings and {@link #SAMPLE_BATCHING}.
     */
    public static Producer<byte[], byte[]> sampleProducer(KafkaClients kafka) {
        return kafka.producer(SAMPLE_PRODUCER, byte[].class, byte[].class, SAMPLE_BATCHING);
    }

    /** The sample producer's settings, for a producer built by hand (the ingest benchmark's contenders). */
    public static Map<String, Object> sampleProducerConfig(KafkaClients kafka) {
        Map<String, Object> config = kafka.producerConfig(SAMPLE_PRODUCER);
        config.putAll(SAMPLE_BATCHING);
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
        return kafka.producer("metrics-gateway-rollups", Topics.TENANT_UTILIZATION);
    }

    public static Producer<String, Notice> noticeProducer(KafkaClients kafka) {
        return kafka.producer("metrics-gateway-notices", Topics.NOTICES);
    }

    public static Producer<String, UsageLedgerEvent> ledgerProducer(KafkaClients kafka) {
        return kafka.producer("metrics-gateway-usage-ledger", Topics.USAGE_LEDGER);
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
     * From when the ledger's inputs are whole ({@link InputHorizon}): null when no partition of booking-events,
     * kueue-workloads, reclaim-events or gpu-samples lost a record. A topic missing yet is whole.
     */
    public static Instant inputsHorizon(KafkaClients kafka) {
        Map<String, Function<ConsumerRecord<byte[], byte[]>, Instant>> timeOf = new HashMap<>();
        timeOf.put(kafka.topic(Topics.BOOKING_EVENTS), eventTime(Topics.BOOKING_EVENTS, BookingEvent::time));
        timeOf.put(kafka.topic(Topics.KUEUE_WORKLOADS), eventTime(Topics.KUEUE_WORKLOADS, WorkloadEvent::time));
        timeOf.put(kafka.topic(Topics.RECLAIM_EVENTS), eventTime(Topics.RECLAIM_EVENTS, ReclaimEvent::time));
        timeOf.put(kafka.topic(Topics.GPU_SAMPLES), eventTime(Topics.GPU_SAMPLES, e -> switch (e) {
            case GpuScrape scrape -> scrape.time();
        }));
        try (Consumer<byte[], byte[]> consumer = projectionConsumer(kafka, "metrics-gateway-ledger-horizon")) {
            return InputHorizon.read(consumer, timeOf, LOOKUP);
        }
    }

    /** A record's event time as its topic's serde reads it; null when it cannot (the feed dead-letters it). */
    private static <T> Function<ConsumerRecord<byte[], byte[]>, Instant> eventTime(
            TopicSpec<String, T> topic, Function<T, Instant> time) {
        Deserializer<T> values = topic.valueSerde().deserializer();
        return record -> {
            try {
                T value = values.deserialize(record.topic(), record.headers(), record.value());
                return value == null ? null : time.apply(value);
            } catch (RuntimeException e) {
                return null;
            }
        };
    }
}
