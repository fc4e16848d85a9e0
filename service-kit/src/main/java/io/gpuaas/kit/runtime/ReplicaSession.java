package io.gpuaas.kit.runtime;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ReplicaRoute.Decoded;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The life of one consumer of a {@link TopicReplica}: assigns every partition of the followed topics (no group),
 * resumes each at the replica's first unapplied offset or, for a partition never seen, at its beginning or end, then
 * polls and applies until it fails or the replica stops. Any exception ends the session; the replica closes the
 * consumer and starts a new session after a backoff. A probe of the end offsets every few seconds turns a broker
 * that went away into such an exception, since a poll alone would just return nothing.
 */
final class ReplicaSession {

    /** What the session needs from its replica. */
    interface Host {
        boolean running();

        /** Waits {@code pause} unless the replica stops meanwhile; false when it is stopping. */
        boolean pause(Duration pause);

        void status(State state, String detail);

        /** The broker answered a probe: the session is healthy. */
        void healthy();
    }

    static final Duration POLL = Duration.ofMillis(100);

    private final Consumer<byte[], byte[]> consumer;
    private final Map<String, ReplicaRoute<?>> routes;
    private final ReplicaProgress progress;
    private final Host host;
    private final ReplicaSettings settings;
    private final DeadLetterPublisher deadLetters;
    private final Set<TopicPartition> assigned = new HashSet<>();
    private Set<String> missing;
    private long nextDiscovery;
    private long nextProbe;

    ReplicaSession(
            Consumer<byte[], byte[]> consumer,
            Map<String, ReplicaRoute<?>> routes,
            ReplicaProgress progress,
            Host host,
            ReplicaSettings settings,
            DeadLetterPublisher deadLetters) {
        this.consumer = consumer;
        this.routes = routes;
        this.progress = progress;
        this.host = host;
        this.settings = settings;
        this.deadLetters = deadLetters;
        this.missing = new HashSet<>(routes.keySet());
    }

    /** Runs until the replica stops; any failure escapes to the replica. */
    void run() {
        discover();
        host.status(State.RUNNING, detail());
        nextProbe = System.nanoTime() + settings.probeInterval().toNanos();
        while (host.running()) {
            if (System.nanoTime() - nextDiscovery >= 0) {
                discover();
            }
            if (assigned.isEmpty()) {
                // poll() without partitions throws: wait for the topics instead.
                host.pause(settings.discoveryInterval());
                continue;
            }
            process(consumer.poll(POLL));
            checkCaughtUp();
            probe();
        }
    }

    /** Assigns the partitions of every followed topic that exist now; topics still missing are looked up later. */
    private void discover() {
        List<TopicPartition> fresh = new ArrayList<>();
        Set<String> stillMissing = new HashSet<>();
        for (String topic : routes.keySet()) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, settings.metadataTimeout());
            if (partitions == null || partitions.isEmpty()) {
                stillMissing.add(topic);
                continue;
            }
            partitions.stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .filter(tp -> !assigned.contains(tp))
                    .forEach(fresh::add);
        }
        missing = stillMissing;
        nextDiscovery = System.nanoTime()
                + (missing.isEmpty() ? settings.rediscoveryInterval() : settings.discoveryInterval()).toNanos();
        if (!fresh.isEmpty()) {
            Set<TopicPartition> all = new HashSet<>(assigned);
            all.addAll(fresh);
            consumer.assign(all);
            position(fresh);
            assigned.addAll(fresh);
        }
        if (!missing.isEmpty()) {
            host.status(State.RUNNING, detail());
        }
        progress.checkCaughtUp(!missing.isEmpty());
    }

    /**
     * Puts each new assignment where it must read: where the replica left it, or for a partition never read at its
     * beginning or end. Both are looked up now rather than in a later poll: "the end" must be the end at assignment,
     * before readiness says caught up, or records written in between would be skipped.
     */
    private void position(List<TopicPartition> fresh) {
        List<TopicPartition> beginning = new ArrayList<>();
        List<TopicPartition> end = new ArrayList<>();
        for (TopicPartition partition : fresh) {
            Long next = progress.next(partition);
            if (next != null) {
                consumer.seek(partition, next);
            } else if (routes.get(partition.topic()).startAt() == StartAt.END && firstLook(partition.topic())) {
                end.add(partition);
            } else {
                beginning.add(partition);
            }
        }
        // An EMPTY collection means "every assigned partition" to seekToBeginning/seekToEnd: never pass one.
        if (!beginning.isEmpty()) {
            consumer.seekToBeginning(beginning);
        }
        if (!end.isEmpty()) {
            consumer.seekToEnd(end);
        }
        List<TopicPartition> unseen = new ArrayList<>(beginning);
        unseen.addAll(end);
        if (unseen.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(unseen, settings.metadataTimeout());
        for (TopicPartition partition : unseen) {
            progress.begin(partition, consumer.position(partition, settings.metadataTimeout()), ends.get(partition));
        }
    }

    /** Whether no partition of {@code topic} was read yet: partitions added to a followed topic later start at 0. */
    private boolean firstLook(String topic) {
        return progress.known().stream().noneMatch(tp -> tp.topic().equals(topic));
    }

    private void process(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                Long next = progress.next(partition);
                if (next != null && record.offset() < next) {
                    continue;
                }
                handle(record, partition);
                progress.applied(partition, record.offset());
            }
        }
    }

    private void handle(ConsumerRecord<byte[], byte[]> record, TopicPartition partition) {
        ReplicaProgress.GaveUp gaveUp = progress.gaveUp();
        if (gaveUp != null && gaveUp.partition().equals(partition) && gaveUp.offset() == record.offset()) {
            deadLetters.publish(record, gaveUp.error());
            return;
        }
        apply(routes.get(record.topic()), record, partition);
    }

    private <T> void apply(ReplicaRoute<T> route, ConsumerRecord<byte[], byte[]> record, TopicPartition partition) {
        Decoded<T> decoded = route.decode(record);
        if (decoded == null) {
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                route.apply(decoded);
                if (attempt > 1) {
                    host.status(State.RUNNING, detail());
                }
                return;
            } catch (RuntimeException e) {
                String at = partition + "@" + record.offset();
                if (attempt >= settings.handlerAttempts()) {
                    // Remembered first: if the dead letter cannot be written, the next consumer only retries that.
                    progress.gaveUp(partition, record.offset(), e);
                    host.status(State.RECOVERING, "handler gave up on " + at + ": " + e);
                    deadLetters.publish(record, e);
                    host.status(State.RUNNING, detail());
                    return;
                }
                Duration wait = settings.backoff().delay(attempt);
                host.status(
                        State.RECOVERING,
                        "handler failed on " + at + " (attempt " + attempt + " of " + settings.handlerAttempts()
                                + "), retrying in " + wait.toMillis() + " ms: " + e);
                if (!host.pause(wait)) {
                    throw new ReplicaStopping();
                }
            }
        }
    }

    private void checkCaughtUp() {
        if (progress.caughtUp()) {
            return;
        }
        progress.catchingUp().entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        progress.checkCaughtUp(!missing.isEmpty());
        if (progress.caughtUp()) {
            host.status(State.RUNNING, detail());
        }
    }

    /** Asks the broker for the end offsets now and then: throws when it cannot answer (gone, refusing). */
    private void probe() {
        if (System.nanoTime() - nextProbe < 0) {
            return;
        }
        consumer.endOffsets(assigned, settings.metadataTimeout());
        nextProbe = System.nanoTime() + settings.probeInterval().toNanos();
        host.healthy();
    }

    private String detail() {
        String base = "following " + assigned.size() + " partitions of " + (routes.size() - missing.size()) + " topics";
        return missing.isEmpty() ? base : base + "; waiting for topics " + missing;
    }

    /** The replica stopped while a handler was being retried: the record stays unapplied. */
    static final class ReplicaStopping extends RuntimeException {
        ReplicaStopping() {
            super("replica stopping", null, false, false);
        }
    }
}
