package io.gpuaas.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every principal's Kafka user may write exactly the topics {@link KafkaAccess} says it writes, through the kit's
 * own producer settings, and the broker refuses the rest: a bug or a leaked credential of one service cannot write
 * another service's facts (a booking command's caller is believed because only booking-service can write it). No
 * principal may create topics; they are the operator's.
 */
@ExtendWith(KafkaBrokerExtension.class)
class KafkaAccessIT {

    @ParameterizedTest
    @EnumSource(KafkaPrincipal.class)
    void shouldLetAPrincipalWriteExactlyTheTopicsTheTableGivesIt(KafkaPrincipal principal, KafkaBroker broker) {
        String prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        try (KafkaClients clients = new KafkaClients(new KafkaSettings(
                broker.bootstrapServers(),
                prefix,
                broker.serviceCredentials(principal.userName(), KafkaAccess.acls(principal, prefix))))) {
            List<String> wrong = new ArrayList<>();
            for (TopicSpec<?, ?> topic : Topics.all()) {
                boolean allowed = KafkaAccess.writers(topic).contains(principal);
                boolean written = writes(clients, clients.topic(topic), allowed);
                if (written != allowed) {
                    wrong.add(topic.baseName() + (allowed ? " refused" : " written"));
                }
            }
            assertThat(wrong).as("%s against the access table", principal).isEmpty();

            NewTopic unplanned = new NewTopic(prefix + "unplanned", 1, (short) 1);
            assertThatThrownBy(() -> clients.admin()
                            .createTopics(List.of(unplanned))
                            .all()
                            .get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    /** One send with the service's producer settings; true when acknowledged, false when the topic was refused. */
    private static boolean writes(KafkaClients clients, String topic, boolean idempotent) {
        Map<String, Object> config = clients.producerConfig("kafka-access-it");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        // An idempotent producer needs a write grant on some topic to get a producer id; a principal that may
        // write nothing (the SRE) would be refused for that reason instead of the topic's, so it sends without.
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotent);
        if (!idempotent) {
            config.put(ProducerConfig.ACKS_CONFIG, "1");
        }
        byte[] bytes = "kafka-access-it".getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, bytes, bytes)).get(20, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException) {
                return false;
            }
            throw new AssertionError("unexpected failure writing " + topic, e);
        } catch (Exception e) {
            throw new AssertionError("unexpected failure writing " + topic, e);
        }
    }
}
