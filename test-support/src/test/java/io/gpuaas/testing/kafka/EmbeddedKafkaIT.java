package io.gpuaas.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaIT {

    @Test
    void shouldServeClientsOnFixedPortWhenPortIsGiven() throws Exception {
        int port = freePort();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().port(port).start()) {
            assertThat(kafka.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
            kafka.createTopics(1, "fixed-port");

            send(kafka, "fixed-port", "k", "hello", false);

            assertThat(readAll(kafka, "fixed-port", 1, "read_committed"))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("hello");
        }
    }

    @Test
    void shouldServeClientsWithoutCredentialsWhenStartedWithoutSecurity() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().withoutSecurity().start()) {
            assertThat(kafka.secured()).isFalse();
            assertThat(kafka.clientProperties()).containsOnlyKeys("bootstrap.servers");
            assertThat(kafka.serviceCredentials("anyone", List.of()))
                    .as("no users on an open broker")
                    .isEmpty();
            kafka.createTopics(1, "open");

            send(kafka, "open", "k", "hello", true);
            send(kafka, "open", "k", "again", false);

            assertThat(readAll(kafka, "open", 1, "read_committed"))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("again");
        }
    }

    @Test
    void shouldHideAbortedRecordsFromReadCommittedConsumersWhenTransactionsAreUsed() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopics(1, "tx");

            send(kafka, "tx", "k", "aborted", true);
            send(kafka, "tx", "k", "committed", false);

            assertThat(readAll(kafka, "tx", 1, "read_committed"))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("committed");
        }
    }

    @Test
    void shouldStartFreshWhenDataDirHoldsAPreviousRun(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("kafka");
        try (EmbeddedKafka first =
                EmbeddedKafka.builder().dataDir(data).deleteOnClose(false).start()) {
            first.createTopics(1, "before-restart");
        }
        assertThat(data).isNotEmptyDirectory();

        try (EmbeddedKafka second = EmbeddedKafka.builder().dataDir(data).start()) {
            second.createTopics(1, "after-restart");
            try (var admin = second.admin()) {
                assertThat(admin.listTopics().names().get())
                        .contains("after-restart")
                        .doesNotContain("before-restart");
            }
        }
    }

    /** Writes one record inside a transaction, then commits it or (if abort) aborts it. */
    static void send(KafkaBroker broker, String topic, String key, String value, boolean abort) throws Exception {
        Map<String, Object> props = broker.clientProperties();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-" + UUID.randomUUID());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, key, value)).get();
            if (abort) {
                producer.abortTransaction();
            } else {
                producer.commitTransaction();
            }
        }
    }

    static List<ConsumerRecord<String, String>> readAll(
            KafkaBroker broker, String topic, int expected, String isolation) {
        Map<String, Object> props = broker.clientProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, broker.uniqueGroupId("reader"));
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            // One more short poll so extra (unexpected) records show up in the assertion.
            consumer.poll(Duration.ofMillis(300)).forEach(out::add);
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
