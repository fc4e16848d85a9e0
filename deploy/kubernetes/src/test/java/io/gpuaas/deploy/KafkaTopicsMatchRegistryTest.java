package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.TopicSpec;
import io.gpuaas.events.Topics;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The KafkaTopics Strimzi creates are exactly the topics of the registry the services produce to and read. */
class KafkaTopicsMatchRegistryTest {

    static final java.util.List<String> TARGETS = Rendering.TARGETS;

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldDeclareEveryRegistryTopicWithItsPartitionsAndConfigsWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        Map<String, Topic> rendered = rendering.ofKind("KafkaTopic").stream()
                .map(KafkaTopicsMatchRegistryTest::topic)
                .collect(Collectors.toMap(Topic::name, t -> t, (a, b) -> a, TreeMap::new));
        Map<String, Topic> registry = Topics.all().stream()
                .map(KafkaTopicsMatchRegistryTest::expected)
                .collect(Collectors.toMap(Topic::name, t -> t, (a, b) -> a, TreeMap::new));

        assertThat(rendered)
                .as("KafkaTopics of %s vs io.gpuaas.events.Topics", target)
                .isEqualTo(registry);
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldBindEveryTopicToTheRenderedKafkaClusterWithEnoughBrokersWhenRendered(String target) {
        Rendering rendering = Rendering.of(target);
        String cluster = Rendering.name(rendering.ofKind("Kafka").getFirst());
        int brokers = rendering.ofKind("KafkaNodePool").stream()
                .filter(p -> Yaml.list(p, "spec", "roles").toString().contains("broker"))
                .mapToInt(p -> ((Number) Yaml.at(p, "spec", "replicas")).intValue())
                .sum();
        Object minIsr = Yaml.at(rendering.ofKind("Kafka").getFirst(), "spec", "kafka", "config", "min.insync.replicas");

        rendering.ofKind("KafkaTopic").forEach(t -> {
            assertThat(Yaml.string(t, "metadata", "labels", "strimzi.io/cluster"))
                    .isEqualTo(cluster);
            int replicas = ((Number) Yaml.at(t, "spec", "replicas")).intValue();
            assertThat(replicas).as("replicas of %s", Rendering.name(t)).isBetween(1, brokers);
            // acks=all producers fail outright when the ISR can never reach min.insync.replicas.
            assertThat(Integer.parseInt(minIsr.toString()))
                    .as("min.insync.replicas")
                    .isLessThanOrEqualTo(replicas);
        });
    }

    private static Topic expected(TopicSpec<?, ?> spec) {
        return new Topic(spec.name(Topics.DEFAULT_PREFIX), spec.partitions(), new TreeMap<>(spec.configs()));
    }

    private static Topic topic(Map<String, Object> kafkaTopic) {
        String name = Yaml.string(kafkaTopic, "spec", "topicName");
        Number partitions = (Number) Yaml.at(kafkaTopic, "spec", "partitions");
        Map<String, String> config = new TreeMap<>();
        Yaml.map(kafkaTopic, "spec", "config").forEach((k, v) -> config.put(k, String.valueOf(v)));
        return new Topic(
                name == null ? Rendering.name(kafkaTopic) : name,
                partitions == null ? -1 : partitions.intValue(),
                config);
    }

    record Topic(String name, int partitions, Map<String, String> configs) {}
}
