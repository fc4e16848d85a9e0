package io.gpuaas.booking.kafka;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * booking-service's Kafka user may do what the service does and nothing more: the broker enforces the ACLs of
 * {@code KafkaAccess}, so a bug or a leaked credential of this service cannot write another service's facts.
 */
@ExtendWith(KafkaBrokerExtension.class)
class KafkaAccessIT {

    private KafkaClients clients;
    private KafkaProducer<byte[], byte[]> producer;

    @BeforeEach
    void runAsBookingService(KafkaBroker broker) {
        String prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        clients = new KafkaClients(new KafkaSettings(broker.bootstrapServers(), prefix,
                broker.serviceCredentials(BOOKING_SERVICE.userName(), KafkaAccess.acls(BOOKING_SERVICE, prefix))));
        // The service's own producer settings (idempotent, acks=all); a refused topic fails fast instead of blocking.
        Map<String, Object> config = clients.producerConfig("kafka-access-it");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void close() {
        producer.close();
        clients.close();
    }

    @Test
    void shouldWriteBookingCommandsWhenRunningAsBookingService() throws Exception {
        assertThat(send(clients.topic(Topics.BOOKING_COMMANDS)).topic()).isEqualTo(clients.topic(Topics.BOOKING_COMMANDS));
    }

    @Test
    void shouldBeRefusedAWriteToGpuSamplesWhenRunningAsBookingService() {
        assertThatThrownBy(() -> send(clients.topic(Topics.GPU_SAMPLES)))
                .as("%s is written by metrics-gateway only", clients.topic(Topics.GPU_SAMPLES))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldBeRefusedCreatingATopicWhenRunningAsBookingService() {
        // Topics are the operator's (Strimzi KafkaTopics, the local stack's super user), never a service's.
        NewTopic unplanned = new NewTopic(clients.topic(Topics.BOOKINGS) + "-unplanned", 1, (short) 1);
        assertThatThrownBy(() -> clients.admin().createTopics(List.of(unplanned)).all().get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
    }

    private RecordMetadata send(String topic) throws Exception {
        byte[] bytes = "kafka-access-it".getBytes(StandardCharsets.UTF_8);
        return producer.send(new ProducerRecord<>(topic, bytes, bytes)).get(20, TimeUnit.SECONDS);
    }
}
