package io.gpuaas.testing.kafka;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A running Kafka broker that tests (and the local stack) talk to over PLAINTEXT.
 * Implemented by {@link EmbeddedKafka} (in-process KRaft) and by a Testcontainers-backed broker.
 */
public interface KafkaBroker {

    /** {@code host:port[,host:port]} for {@code bootstrap.servers}. */
    String bootstrapServers();

    /** Minimal client properties: just {@code bootstrap.servers}. A new mutable map each call. */
    default Map<String, Object> clientProperties() {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    /** A new Admin client bound to this broker; the caller closes it. */
    default Admin admin() {
        return Admin.create(clientProperties());
    }

    /**
     * Creates topics (1 replica) and waits until they exist. Topics that already exist are kept.
     *
     * @param partitions partitions per topic
     */
    default void createTopics(int partitions, String... names) {
        List<NewTopic> topics = Arrays.stream(names).map(n -> new NewTopic(n, partitions, (short) 1)).toList();
        try (Admin admin = admin()) {
            for (var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("could not create topic " + entry.getKey(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out creating topics " + Arrays.toString(names), e);
        }
    }

    /**
     * A topic prefix no other caller in this JVM gets, shaped like the production one:
     * {@code t<n>.gpuaas.}. Pass it as {@code gpuaas.kafka.topic-prefix} so tests sharing the
     * broker never see each other's records.
     */
    default String uniquePrefix() {
        return "t" + UniqueNames.COUNTER.incrementAndGet() + ".gpuaas.";
    }

    /** A consumer group / application id no other caller in this JVM gets: {@code <base>-<n>}. */
    default String uniqueGroupId(String base) {
        return base + "-" + UniqueNames.COUNTER.incrementAndGet();
    }
}
