package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.configuration.kafka.streams.ConfiguredStreamBuilder;
import io.micronaut.configuration.kafka.streams.KafkaStreamsFactory;
import io.micronaut.configuration.kafka.streams.health.KafkaStreamsHealth;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Singleton;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

/**
 * Why the kit does not run its Streams applications on micronaut-kafka-streams (service-kit/DESIGN.md): its
 * {@code KafkaStreamsFactory} starts the client while the context starts, before any start condition of ours could
 * hold, and a client that reached ERROR stays the application's client, in ERROR, with its health DOWN, until the
 * process restarts. If a later version supervised its clients, this test would fail and the choice could be revisited.
 */
@ExtendWith(KafkaBrokerExtension.class)
class MicronautKafkaStreamsIT {

    static final String ENABLED = "micronaut-kafka-streams-it.enabled";
    static final String TOPIC = "micronaut-kafka-streams-it.topic";

    @Test
    void shouldLeaveAClientThatReachedErrorInErrorAndStartItBeforeAnyGate(KafkaBroker broker) throws Exception {
        String topic = broker.uniquePrefix() + "in";
        broker.createTopics(1, topic);
        try (ApplicationContext context = ApplicationContext.run(properties(broker, topic));
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        broker.clientProperties(), new StringSerializer(), new StringSerializer())) {
            KafkaStreamsFactory factory = context.getBean(KafkaStreamsFactory.class);
            KafkaStreams client = context.getBean(KafkaStreams.class);
            assertThat(client.state()).as("started while the context started").isNotEqualTo(KafkaStreams.State.CREATED);
            await().atMost(Duration.ofSeconds(120)).until(() -> client.state() == KafkaStreams.State.RUNNING);

            producer.send(new ProducerRecord<>(topic, "k", "poison")).get();
            await().atMost(Duration.ofSeconds(120)).until(() -> client.state() == KafkaStreams.State.ERROR);
            producer.send(new ProducerRecord<>(topic, "k", "fine")).get();

            // Our StreamsApplication has a new client RUNNING within seconds here (StreamsApplicationIT).
            await().during(Duration.ofSeconds(5))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> factory.getStreams().keySet().equals(java.util.Set.of(client))
                            && client.state() == KafkaStreams.State.ERROR);
            assertThat(context.getBean(KafkaStreams.class)).isSameAs(client);
            HealthResult health = Mono.from(
                            context.getBean(KafkaStreamsHealth.class).getResult())
                    .block(Duration.ofSeconds(10));
            assertThat(health.getStatus()).isEqualTo(HealthStatus.DOWN);
        }
    }

    /** The library's own configuration tree: {@code kafka.*} (SASL copied from our settings) and one stream. */
    private static Map<String, Object> properties(KafkaBroker broker, String topic) throws Exception {
        Map<String, Object> properties = new HashMap<>();
        broker.clientProperties().forEach((k, v) -> properties.put("kafka." + k, v));
        // The kit bridges gpuaas.kafka.* into micronaut-kafka's root configuration, so it needs them too.
        broker.clientProperties()
                .forEach((k, v) -> properties.put(
                        k.equals("bootstrap.servers")
                                ? "gpuaas.kafka.bootstrap-servers"
                                : "gpuaas.kafka.properties." + k,
                        v));
        properties.put("kafka.enabled", true);
        properties.put("kafka.health.enabled", false);
        properties.put("kafka.streams.default.application.id", broker.uniqueGroupId("micronaut-streams"));
        properties.put("kafka.streams.default.processing.guarantee", "exactly_once_v2");
        properties.put("kafka.streams.default.auto.offset.reset", "earliest");
        properties.put(
                "kafka.streams.default.state.dir",
                Files.createTempDirectory("micronaut-streams").toString());
        // The kit's own beans in the same context need their settings.
        properties.put("gpuaas.security.issuer", TestJwt.ISSUER);
        properties.put("gpuaas.security.audience", TestJwt.AUDIENCE);
        properties.put(
                "gpuaas.security.jwks-path",
                TestJwt.generate()
                        .writeJwks(Files.createTempFile("jwks", ".json"))
                        .toString());
        properties.put(ENABLED, true);
        properties.put(TOPIC, topic);
        return properties;
    }

    /** The stream, as a micronaut-kafka-streams application declares it: a KStream on the configured builder. */
    @Factory
    @Requires(property = ENABLED, value = "true")
    static class PoisonedStream {

        @Singleton
        KStream<String, String> stream(ConfiguredStreamBuilder builder, @Value("${" + TOPIC + "}") String topic) {
            KStream<String, String> stream = builder.stream(topic, Consumed.with(Serdes.String(), Serdes.String()));
            stream.foreach((key, value) -> {
                if ("poison".equals(value)) {
                    throw new IllegalStateException("processor refuses the poison record");
                }
            });
            return stream;
        }
    }
}
