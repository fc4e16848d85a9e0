package io.gpuaas.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KafkaBrokerExtension.class)
class BrokerSecurityIT {

    @Test
    void shouldRefuseAClientWithoutCredentialsWhenItConnects(KafkaBroker broker) {
        Map<String, Object> anonymous = Map.of(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                5_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                2_000);
        try (Admin admin = Admin.create(anonymous)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .as("a PLAINTEXT client gets no answer from a SASL listener")
                    .isNotNull();
        }
    }

    @Test
    void shouldRefuseAWrongPasswordWhenAUserLogsIn(KafkaBroker broker) {
        broker.userProperties("someone");
        Map<String, Object> props = new java.util.HashMap<>(KafkaCredentials.scram("someone", "not-the-password"));
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        try (Admin admin = Admin.create(props)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void shouldLetAUserWriteOnlyWhatItsAclsGrantWhenItProduces(KafkaBroker broker) throws Exception {
        String prefix = broker.uniquePrefix();
        broker.createTopics(1, prefix + "granted", prefix + "other");
        String user = broker.uniqueGroupId("writer");
        broker.createAcls(List.of(
                acl(user, prefix + "granted", AclOperation.WRITE),
                acl(user, prefix + "granted", AclOperation.DESCRIBE)));

        Map<String, Object> props = broker.userProperties(user);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            assertThat(producer.send(new ProducerRecord<>(prefix + "granted", "k", "v"))
                            .get(10, TimeUnit.SECONDS)
                            .offset())
                    .isZero();
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(prefix + "other", "k", "v"))
                            .get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void shouldGiveTheSamePasswordWhenAUserIsAskedForTwice(KafkaBroker broker) {
        assertThat(broker.userProperties("twice")).isEqualTo(broker.userProperties("twice"));
        assertThat(broker.derivedPassword("twice")).isNotEqualTo(broker.derivedPassword("other"));
    }

    private static AclBinding acl(String user, String topic, AclOperation op) {
        return new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW));
    }
}
