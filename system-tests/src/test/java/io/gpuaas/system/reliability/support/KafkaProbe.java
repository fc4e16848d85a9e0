package io.gpuaas.system.reliability.support;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.local.kafka.KafkaIdentities;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Raw reads and writes on the suite's broker under the stack's own Kafka users: reads as the read-only SRE user (as
 * an operator would look), writes as the service that owns the topic, the only principal the broker lets write it.
 */
public final class KafkaProbe {

    private final KafkaIdentities identities;

    public KafkaProbe(KafkaIdentities identities) {
        this.identities = identities;
    }

    /**
     * Writes one record to an exact partition (acks=all) as the topic's owner and answers where it landed. A poison
     * record in production can only come from a principal allowed to write the topic (a buggy or skewed release of
     * its owner), so that is who writes it here; the super user would bypass the ACLs this suite runs under.
     */
    public RecordMetadata sendAsOwner(
            String topic, int partition, String key, byte[] value, Map<String, String> headers) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer(owner(topic))) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                    topic, partition, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
            headers.forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
            return producer.send(record).get();
        }
    }

    /** The one principal that writes {@code topic} (a contract topic of the default prefix). */
    public static KafkaPrincipal owner(String topic) {
        TopicSpec<?, ?> spec = Topics.all().stream()
                .filter(t -> t.name(Topics.DEFAULT_PREFIX).equals(topic))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a contract topic: " + topic));
        Set<KafkaPrincipal> writers = KafkaAccess.writers(spec);
        if (writers.size() != 1) {
            throw new IllegalArgumentException(topic + " has no single owner: " + writers);
        }
        return writers.iterator().next();
    }

    private KafkaProducer<byte[], byte[]> producer(KafkaPrincipal principal) {
        Map<String, Object> config = identities.clientProperties(principal);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public int partitions(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            return consumer.partitionsFor(topic, Duration.ofSeconds(10)).size();
        }
    }

    /** Every record of the topic up to its current end, in partition order. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** As the SRE: its consumer groups must carry its prefix, the only groups its ACLs allow. */
    private KafkaConsumer<byte[], byte[]> consumer() {
        Map<String, Object> config = identities.clientProperties(KafkaPrincipal.SRE);
        config.put(
                ConsumerConfig.GROUP_ID_CONFIG,
                KafkaPrincipal.sreGroupPrefix() + "reliability-probe-" + UUID.randomUUID());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
