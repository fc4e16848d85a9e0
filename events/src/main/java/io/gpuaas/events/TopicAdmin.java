package io.gpuaas.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the topics of the {@link Topics} registry. Used by tests and the local stack; in Kubernetes the Strimzi
 * KafkaTopics derived from the same registry do this job.
 */
public final class TopicAdmin {

    private static final long TIMEOUT_SECONDS = 60;

    private TopicAdmin() {}

    /**
     * Creates every topic of {@link Topics#all()} with {@code prefix} in front, with the broker's default
     * replication factor. Idempotent: topics that already exist are left as they are (their settings are not
     * compared or changed). Producers may see a few retriable {@code NOT_LEADER_OR_FOLLOWER} warnings right after
     * creation while the broker applies the new partitions; they retry on their own.
     *
     * @return the full names of the topics this call created (empty when all existed)
     * @throws KafkaException when a topic can neither be created nor found to exist, or the broker does not answer
     *                        within 60 s
     */
    public static List<String> createAll(Admin admin, String prefix) {
        return createAll(admin, prefix, Optional.empty());
    }

    /** As {@link #createAll(Admin, String)} with an explicit replication factor (e.g. 3 in production). */
    public static List<String> createAll(Admin admin, String prefix, Optional<Short> replicationFactor) {
        List<NewTopic> wanted = Topics.all().stream()
                .map(spec -> new NewTopic(spec.name(prefix), Optional.of(spec.partitions()), replicationFactor)
                        .configs(spec.configs()))
                .toList();
        Map<String, KafkaFuture<Void>> results = admin.createTopics(wanted).values();
        List<String> created = new ArrayList<>();
        for (NewTopic topic : wanted) {
            if (await(results.get(topic.name()), topic.name())) {
                created.add(topic.name());
            }
        }
        return List.copyOf(created);
    }

    /** True when created, false when it already existed. */
    private static boolean await(KafkaFuture<Void> result, String topic) {
        try {
            result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw new KafkaException("cannot create topic " + topic, e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("no answer creating topic " + topic + " within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }
}
