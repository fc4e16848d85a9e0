package io.gpuaas.metrics.kafka;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the projections from Kafka. Every gateway replica needs every queue, booking and reclaim fact, so it
 * assigns all partitions itself (no consumer group): compacted and history topics are read from the
 * beginning, GPU samples from the end (only the present matters for gauges). Unreadable records are
 * dead-lettered by {@link EventReader} and the partition moves on. Topics that do not exist yet are retried.
 */
public final class ProjectionConsumer implements Runnable, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProjectionConsumer.class);
    private static final Duration RETRY_ASSIGN = Duration.ofSeconds(5);

    /** One topic the consumer follows and what to do with its records (value null for tombstones). */
    public record Feed<T>(TopicSpec<String, T> topic, boolean fromBeginning, BiConsumer<String, T> handler) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Map<String, Route<?>> routes = new HashMap<>();
    private final Set<TopicPartition> assigned = new HashSet<>();
    private Set<String> waitingFor;
    private volatile boolean running = true;
    private volatile boolean caughtUp;

    public ProjectionConsumer(Consumer<byte[], byte[]> consumer, String prefix, DeadLetterPublisher deadLetters,
                              List<Feed<?>> feeds) {
        this.consumer = consumer;
        feeds.forEach(feed -> routes.put(feed.topic().name(prefix), Route.of(feed, deadLetters)));
        this.waitingFor = new HashSet<>(routes.keySet());
    }

    @Override
    public void run() {
        long nextAssign = 0;
        try {
            while (running) {
                if (!waitingFor.isEmpty() && System.nanoTime() >= nextAssign) {
                    assignNewPartitions();
                    nextAssign = System.nanoTime() + RETRY_ASSIGN.toNanos();
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    routes.get(record.topic()).handle(record);
                }
                caughtUp = !assigned.isEmpty();
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void assignNewPartitions() {
        List<TopicPartition> fresh = new ArrayList<>();
        Set<String> missing = new HashSet<>();
        routes.forEach((topic, route) -> {
            List<PartitionInfo> partitions;
            try {
                partitions = consumer.partitionsFor(topic, Duration.ofSeconds(2));
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                // Slow metadata (a broker still starting, a loaded machine) means "not yet", never "give up".
                partitions = null;
            }
            if (partitions == null || partitions.isEmpty()) {
                missing.add(topic);
                return;
            }
            partitions.forEach(p -> {
                TopicPartition tp = new TopicPartition(topic, p.partition());
                if (!assigned.contains(tp)) {
                    fresh.add(tp);
                }
            });
        });
        waitingFor = missing;
        if (fresh.isEmpty()) {
            return;
        }
        assigned.addAll(fresh);
        consumer.assign(assigned);
        consumer.seekToBeginning(fresh.stream().filter(tp -> routes.get(tp.topic()).fromBeginning()).toList());
        consumer.seekToEnd(fresh.stream().filter(tp -> !routes.get(tp.topic()).fromBeginning()).toList());
        LOG.info("following {} new partitions{}", fresh.size(), missing.isEmpty() ? "" : "; waiting for " + missing);
    }

    /** Whether the consumer has partitions and has polled at least once (readiness of the projections). */
    public boolean caughtUp() {
        return caughtUp;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
    }

    private record Route<T>(EventReader<T> reader, BiConsumer<String, T> handler, boolean fromBeginning,
                            DeadLetterPublisher deadLetters) {

        static <T> Route<T> of(Feed<T> feed, DeadLetterPublisher deadLetters) {
            return new Route<>(EventReader.of(feed.topic(), deadLetters), feed.handler(), feed.fromBeginning(),
                    deadLetters);
        }

        void handle(ConsumerRecord<byte[], byte[]> record) {
            String key = reader.key(record);
            try {
                if (record.value() == null) {
                    handler.accept(key, null);
                } else {
                    reader.read(record).ifPresent(value -> handler.accept(key, value));
                }
            } catch (RuntimeException e) {
                // A readable record the projection cannot apply (e.g. a missing field) must not stop the partition.
                deadLetters.publish(record, e);
            }
        }
    }
}
