package io.gpuaas.testing.kafka;

import org.testcontainers.kafka.KafkaContainer;

/** A broker in Docker (apache/kafka image, KRaft) via Testcontainers' Kafka module. */
final class ContainerKafka implements KafkaBroker, AutoCloseable {

    static final String DEFAULT_IMAGE = "apache/kafka:4.1.1";

    private final KafkaContainer container;

    private ContainerKafka(KafkaContainer container) {
        this.container = container;
    }

    static ContainerKafka start(String image) {
        // The module already sets one-replica internal topics; these match EmbeddedKafka's defaults.
        KafkaContainer container = new KafkaContainer(image)
            .withEnv("KAFKA_TRANSACTION_STATE_LOG_NUM_PARTITIONS", "5")
            .withEnv("KAFKA_MIN_INSYNC_REPLICAS", "1")
            .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1")
            .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1");
        container.start();
        return new ContainerKafka(container);
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "ContainerKafka[" + container.getDockerImageName() + " @ " + bootstrapServers() + "]";
    }
}
