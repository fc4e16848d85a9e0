package io.gpuaas.quota.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The projector's readers on a real broker: on kueue-workloads (read back when a leader restores its ledger) a null
 * and a record that breaks its schema are dead-lettered; on the compacted bookings a broken record is dead-lettered
 * while a null is a delete, and the booking written after both on the same key becomes quota.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
class UntrustedRecordsIT {

    @Test
    void shouldDeadLetterWhatItCannotTrustAndProjectTheNextBookingWhenItFollowsOnTheSameKey(
            KubernetesClient client, KafkaBroker broker) throws Exception {
        try (ProjectorFixture fixture = new ProjectorFixture(client, broker);
                // Written as the super user: the poison lands on topics of two owners (quota-projector,
                // booking-service).
                KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(
                        broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            String workloads = fixture.kafka.topic(Topics.KUEUE_WORKLOADS);
            String bookings = fixture.kafka.topic(Topics.BOOKINGS);
            RecordMetadata nullWorkload = raw.send(new ProducerRecord<>(workloads, bytes("echo/train"), null))
                    .get();
            RecordMetadata brokenWorkload = raw.send(new ProducerRecord<>(
                            workloads,
                            null,
                            bytes("echo/train"),
                            bytes("{\"namespace\":\"echo\",\"name\":\"\"}"),
                            typed(WorkloadEvent.WorkloadObserved.class)))
                    .get();
            RecordMetadata brokenBooking = raw.send(new ProducerRecord<>(
                            bookings,
                            null,
                            bytes("b-echo"),
                            bytes("{\"id\":\"b-echo\",\"state\":\"MAYBE\"}"),
                            typed(Booking.class)))
                    .get();
            RecordMetadata deletedBooking = raw.send(new ProducerRecord<>(bookings, bytes("b-echo"), null))
                    .get();
            fixture.tenantNamespace("echo", "echo");
            fixture.book(
                    "b-echo", "echo", "h200", 1, Instant.now(), Instant.now().plusSeconds(120));

            QuotaProjector projector = fixture.start(
                    QuotaSettings.defaults(), LeaseSettings.elect("gpuaas-quota-projector"), new PrometheusRegistry());

            await().atMost(Duration.ofSeconds(30)).until(projector::leading);
            await().atMost(Duration.ofSeconds(10)).until(() -> fixture.get(Kind.CLUSTER_QUEUE, null, "gpuaas-echo")
                    .isPresent());
            String deadLetters = fixture.kafka.topic(Topics.DEAD_LETTER);
            List<ConsumerRecord<String, String>> letters = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                letters.clear();
                letters.addAll(fixture.records(deadLetters));
                return letters.size() >= 3;
            });
            assertLetter(letters, nullWorkload, "echo/train", "TOMBSTONE");
            assertLetter(letters, brokenWorkload, "echo/train", "SCHEMA_VIOLATION");
            assertLetter(letters, brokenBooking, "b-echo", "SCHEMA_VIOLATION");
            assertThat(letters)
                    .as("a delete on the compacted bookings is no dead letter")
                    .noneMatch(letter -> from(letter, deletedBooking));
        }
    }

    private static void assertLetter(
            List<ConsumerRecord<String, String>> letters, RecordMetadata original, String key, String reason) {
        assertThat(letters)
                .filteredOn(letter -> from(letter, original))
                .isNotEmpty()
                .allSatisfy(letter -> {
                    assertThat(letter.key()).isEqualTo(key);
                    assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo(reason);
                    assertThat(header(letter, DeadLetterPublisher.GROUP)).isEqualTo("quota-projector");
                });
    }

    private static boolean from(ConsumerRecord<String, String> letter, RecordMetadata original) {
        return original.topic().equals(header(letter, DeadLetterPublisher.TOPIC))
                && Integer.toString(original.partition()).equals(header(letter, DeadLetterPublisher.PARTITION))
                && Long.toString(original.offset()).equals(header(letter, DeadLetterPublisher.OFFSET));
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), UTF_8);
    }

    private static RecordHeaders typed(Class<?> type) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.TYPE, bytes(EventTypes.typeOf(type)));
        return headers;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
