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
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the projections from Kafka. Every gateway replica needs every queue, booking and reclaim fact, so it
 * assigns all partitions itself (no consumer group): compacted and history topics are read from the
 * beginning, GPU samples from the end (only the present matters for gauges). Records that cannot be read or
 * trusted (a schema bound broken, a null value on a topic that is not compacted) are dead-lettered and the
 * partition moves on. Topics that do not exist yet are retried.
 *
 * <p>The loop never dies on an exception: whatever escapes a poll is logged and the loop goes on after a pause.
 * A record whose dead letter cannot be written (broker down) is not skipped: its partition is rewound to it and
 * it is tried again. Only an {@link Error} ends the thread, and then {@link #caughtUp()} turns false (readiness
 * DOWN).
 */
public final class ProjectionConsumer implements Runnable, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProjectionConsumer.class);
    private static final Duration RETRY_ASSIGN = Duration.ofSeconds(5);
    private static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(1);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration POSITION_TIMEOUT = Duration.ofSeconds(30);

    /**
     * One topic the consumer follows and what to do with its records. The handler gets a null value only for a
     * delete on a compacted topic; a null on any other topic is dead-lettered ({@code TOMBSTONE}) and never reaches it.
     */
    public record Feed<T>(TopicSpec<String, T> topic, boolean fromBeginning, BiConsumer<String, T> handler) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Map<String, Route<?>> routes = new HashMap<>();
    private final Set<TopicPartition> assigned = new HashSet<>();
    private Set<String> waitingFor;
    private long nextAssign = System.nanoTime();
    private volatile boolean running = true;
    private volatile boolean alive = true;
    private volatile boolean caughtUp;

    public ProjectionConsumer(Consumer<byte[], byte[]> consumer, String prefix, DeadLetterPublisher deadLetters,
                              List<Feed<?>> feeds) {
        this.consumer = consumer;
        feeds.forEach(feed -> routes.put(feed.topic().name(prefix), Route.of(feed, deadLetters)));
        this.waitingFor = new HashSet<>(routes.keySet());
    }

    @Override
    public void run() {
        try {
            while (running) {
                try {
                    step();
                } catch (WakeupException e) {
                    if (running) {
                        LOG.warn("projection consumer woken up while running; polling on");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    running = false;
                } catch (RuntimeException e) {
                    // Whatever it is (broker trouble, a dead letter that cannot be written), the projections must
                    // keep following: positions are where process() left them, so nothing is skipped.
                    LOG.error("projection loop failed; going on in {}", PAUSE_AFTER_FAILURE, e);
                    pause();
                }
            }
        } catch (Error e) {
            LOG.error("projection consumer stopped: the projections no longer follow Kafka", e);
            throw e;
        } finally {
            alive = false;
            caughtUp = false;
            closeConsumer();
        }
    }

    private void step() throws InterruptedException {
        if (!waitingFor.isEmpty() && System.nanoTime() - nextAssign >= 0) {
            assignNewPartitions();
            nextAssign = System.nanoTime() + RETRY_ASSIGN.toNanos();
        }
        if (assigned.isEmpty()) {
            // poll() without partitions throws: wait for the topics instead.
            Thread.sleep(POLL);
            return;
        }
        process(consumer.poll(POLL));
        caughtUp = true;
    }

    private void process(ConsumerRecords<byte[], byte[]> records) {
        List<TopicPartition> partitions = new ArrayList<>(records.partitions());
        for (int i = 0; i < partitions.size(); i++) {
            TopicPartition partition = partitions.get(i);
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                try {
                    routes.get(record.topic()).handle(record);
                } catch (DeadLetterFailure e) {
                    // poll() already moved past this batch: rewind every partition to its first unhandled record.
                    consumer.seek(partition, record.offset());
                    partitions.subList(i + 1, partitions.size())
                            .forEach(later -> consumer.seek(later, records.records(later).getFirst().offset()));
                    throw e;
                }
            }
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
        if (fresh.isEmpty()) {
            waitingFor = missing;
            return;
        }
        Set<TopicPartition> all = new HashSet<>(assigned);
        all.addAll(fresh);
        consumer.assign(all);
        List<TopicPartition> beginning = fresh.stream().filter(tp -> routes.get(tp.topic()).fromBeginning()).toList();
        List<TopicPartition> end = fresh.stream().filter(tp -> !routes.get(tp.topic()).fromBeginning()).toList();
        // An EMPTY collection means "every assigned partition" to seekToBeginning/seekToEnd: a late topic read from
        // the beginning would otherwise be moved to its end, with every other partition (docs/decisions/0008).
        if (!beginning.isEmpty()) {
            consumer.seekToBeginning(beginning);
        }
        if (!end.isEmpty()) {
            consumer.seekToEnd(end);
        }
        resolvePositions(fresh);
        assigned.addAll(fresh);
        waitingFor = missing;
        LOG.info("following {} new partitions{}", fresh.size(), missing.isEmpty() ? "" : "; waiting for " + missing);
    }

    /**
     * Looks the new positions up now rather than in some later poll: "the end" of a live topic must be its end when
     * it was taken, before readiness reports the projections caught up. Left to a poll whose 100 ms ran out before
     * the offset answer came (a loaded machine), the lookup happened seconds later and skipped the samples sent in
     * between. One lookup answers every partition waiting for a reset; if even that is slow, the next poll finishes it.
     */
    private void resolvePositions(List<TopicPartition> fresh) {
        try {
            for (TopicPartition partition : fresh) {
                consumer.position(partition, POSITION_TIMEOUT);
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            LOG.warn("offsets of new partitions not known within {}; the next poll looks them up", POSITION_TIMEOUT);
        }
    }

    private void pause() {
        try {
            Thread.sleep(PAUSE_AFTER_FAILURE);
        } catch (InterruptedException e) {
            // Nobody but a shutdown interrupts this thread.
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void closeConsumer() {
        try {
            consumer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.warn("closing the projection consumer failed", e);
        }
    }

    /** Whether the loop runs, has partitions and has polled at least once (readiness of the projections). */
    public boolean caughtUp() {
        return caughtUp && alive;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
    }

    /** The dead letter of a record could not be written: the record must be tried again, not skipped. */
    static final class DeadLetterFailure extends RuntimeException {
        DeadLetterFailure(ConsumerRecord<byte[], byte[]> record, RuntimeException cause) {
            super("cannot dead-letter " + record.topic() + "-" + record.partition() + "@" + record.offset()
                    + "; it will be tried again", cause);
        }
    }

    private record Route<T>(EventReader<T> reader, BiConsumer<String, T> handler, boolean fromBeginning,
                            boolean compacted, DeadLetterPublisher deadLetters) {

        static <T> Route<T> of(Feed<T> feed, DeadLetterPublisher deadLetters) {
            return new Route<>(EventReader.of(feed.topic(), deadLetters), feed.handler(), feed.fromBeginning(),
                    feed.topic().compacted(), deadLetters);
        }

        void handle(ConsumerRecord<byte[], byte[]> record) {
            String key = reader.key(record);
            Optional<T> value;
            try {
                // The reader decides tombstones from the topic: a delete on a compacted one, a dead letter elsewhere.
                value = reader.read(record);
            } catch (RuntimeException e) {
                // EventReader dead-letters what it cannot decode itself; it only throws when that write failed.
                throw new DeadLetterFailure(record, e);
            }
            boolean delete = compacted && record.value() == null;
            if (value.isEmpty() && !delete) {
                return;
            }
            try {
                handler.accept(key, value.orElse(null));
            } catch (RuntimeException e) {
                // A readable record the projection cannot apply (e.g. a missing field) must not stop the partition.
                try {
                    deadLetters.publish(record, e);
                } catch (RuntimeException failure) {
                    failure.addSuppressed(e);
                    throw new DeadLetterFailure(record, failure);
                }
            }
        }
    }
}
