package io.gpuaas.system.reliability.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Raw reads and writes on the suite's broker: whole topics from the beginning, records to exact partitions. */
public final class KafkaProbe {

    private final String bootstrap;

    public KafkaProbe(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** Writes one record to an exact partition (acks=all) and answers where it landed. */
    public RecordMetadata send(String topic, int partition, String key, byte[] value, Map<String, String> headers) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition,
                    key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
            headers.forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
            return producer.send(record).get();
        }
    }

    public KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
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
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** Committed offsets of every consumer group (Streams application ids included) whose id contains {@code part}. */
    public Map<String, Map<TopicPartition, Long>> committed(String part) throws Exception {
        Map<String, Map<TopicPartition, Long>> out = new HashMap<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (GroupListing group : admin.listGroups().all().get()) {
                if (!group.groupId().contains(part)) {
                    continue;
                }
                Map<TopicPartition, Long> offsets = new HashMap<>();
                Map<TopicPartition, OffsetAndMetadata> raw = admin.listConsumerGroupOffsets(group.groupId())
                        .partitionsToOffsetAndMetadata().get();
                raw.forEach((tp, om) -> {
                    if (om != null) {
                        offsets.put(tp, om.offset());
                    }
                });
                out.put(group.groupId(), offsets);
            }
        }
        return out;
    }

    public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "reliability-probe-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
