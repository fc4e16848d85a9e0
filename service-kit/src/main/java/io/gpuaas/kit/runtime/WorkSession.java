package io.gpuaas.kit.runtime;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.OffsetTracker.Partition;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer's life in a {@link WorkConsumer}: subscribe, poll, hand records to the work, commit now and then,
 * pause crowded partitions, follow rebalances. Whatever it held is forgotten when it ends; the next session starts
 * from the committed offsets.
 */
final class WorkSession<V, R> implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(WorkSession.class);
    private static final Duration POLL = Duration.ofMillis(100);

    /** A record whose work failed, to be dead-lettered on the consumer thread. */
    private record Failure<R>(Partition<R> partition, ConsumerRecord<byte[], byte[]> record, Throwable cause) {}

    private final WorkConsumer.Settings<V, R> settings;
    private final OffsetTracker<R> tracker;
    private final ReplicaStatus status;
    private final Queue<Failure<R>> failures = new ConcurrentLinkedQueue<>();
    private final Set<TopicPartition> assigned = new HashSet<>();
    private final Set<TopicPartition> paused = new HashSet<>();
    private Consumer<byte[], byte[]> consumer;
    private Committer.Session<R> commits;
    private boolean closing;

    WorkSession(WorkConsumer.Settings<V, R> settings, OffsetTracker<R> tracker, ReplicaStatus status) {
        this.settings = settings;
        this.tracker = tracker;
        this.status = status;
    }

    /** Runs until stopped (null) or until something fails (the failure). */
    RuntimeException run(Supplier<Duration> grace) {
        try {
            consumer = settings.consumers().get();
            commits = settings.committer().open(consumer);
            consumer.subscribe(List.of(settings.topic()), this);
            long nextCommit = System.nanoTime();
            while (status.running()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    take(record);
                }
                deadLetterFailures();
                status.status(State.RUNNING, "following " + settings.topic());
                if (System.nanoTime() - nextCommit >= 0) {
                    commit();
                    status.healthy();
                    nextCommit = System.nanoTime() + settings.commitInterval().toNanos();
                }
                throttle();
            }
            finish(grace.get());
            return null;
        } catch (RuntimeException e) {
            return status.running() ? e : null;
        } finally {
            end();
        }
    }

    private void take(ConsumerRecord<byte[], byte[]> record) {
        Partition<R> partition = tracker.held(new TopicPartition(record.topic(), record.partition()));
        if (partition == null || !tracker.open(partition, record.offset())) {
            return;
        }
        // Throws when the dead-letter topic cannot be written: the record stays open and the session ends.
        Optional<V> value = settings.reader().read(record);
        if (value.isEmpty()) {
            tracker.finished(partition, record.offset(), null);
            return;
        }
        long started = System.nanoTime();
        CompletionStage<R> stage;
        try {
            stage = settings.work().start(record, value.get());
        } catch (RuntimeException e) {
            failures.add(new Failure<>(partition, record, e));
            return;
        }
        stage.whenComplete((result, error) -> {
            if (error != null) {
                failures.add(new Failure<>(partition, record, unwrap(error)));
            } else {
                tracker.finished(partition, record.offset(), result);
                settings.metrics().completed(System.nanoTime() - started);
            }
        });
    }

    private void deadLetterFailures() {
        for (Failure<R> failure = failures.peek(); failure != null; failure = failures.peek()) {
            settings.deadLetters().publish(failure.record(), failure.cause());
            failures.remove();
            settings.metrics().failed();
            tracker.finished(failure.partition(), failure.record().offset(), null);
        }
    }

    private void commit() {
        OffsetTracker.Drain<R> drain = tracker.drain();
        commits.commit(drain.offsets(), drain.results());
        if (!drain.offsets().isEmpty()) {
            settings.metrics().committed();
        }
        settings.metrics().open(tracker.open());
    }

    /** Pauses partitions with too many open records, resumes those that drained; polling goes on (group kept). */
    private void throttle() {
        Set<TopicPartition> crowded = tracker.crowded(settings.maxOpenPerPartition());
        crowded.retainAll(consumer.assignment());
        Set<TopicPartition> resume = new HashSet<>(paused);
        resume.removeAll(crowded);
        if (!resume.isEmpty()) {
            consumer.resume(resume);
            paused.removeAll(resume);
        }
        crowded.removeAll(paused);
        if (!crowded.isEmpty()) {
            consumer.pause(crowded);
            paused.addAll(crowded);
        }
    }

    /** Stopping: lets open work finish within half the grace, then commits what finished. */
    private void finish(Duration grace) {
        long deadline = System.nanoTime() + grace.dividedBy(2).toNanos();
        try {
            while (tracker.open() > 0 && System.nanoTime() < deadline) {
                deadLetterFailures();
                tracker.awaitNoneOpen(Math.min(Duration.ofMillis(50).toNanos(), deadline - System.nanoTime()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deadLetterFailures();
        commit();
    }

    /** Forgets what this session held, then closes its clients (the stop path committed already). */
    private void end() {
        closing = true;
        if (!assigned.isEmpty()) {
            release(Set.copyOf(assigned));
        }
        tracker.clear();
        settings.metrics().open(0);
        if (consumer != null) {
            try {
                consumer.close(Duration.ofSeconds(2));
            } catch (RuntimeException e) {
                LOG.debug("{}: closing the consumer failed", settings.name(), e);
            }
        }
        if (commits != null) {
            try {
                commits.close();
            } catch (RuntimeException e) {
                LOG.debug("{}: closing the committer failed", settings.name(), e);
            }
        }
    }

    private void release(Collection<TopicPartition> partitions) {
        tracker.revoke(partitions);
        assigned.removeAll(partitions);
        paused.removeAll(partitions);
        settings.work().revoked(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
        for (TopicPartition tp : partitions) {
            tracker.assigned(tp, committed.get(tp));
        }
        assigned.addAll(partitions);
        LOG.info("{}: assigned {}", settings.name(), partitions);
    }

    /** Still the owner: what finished is committed now (a failure ends the session), the rest is the next owner's. */
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty() || closing) {
            return;
        }
        commit();
        release(partitions);
        LOG.info("{}: handed over {}", settings.name(), partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        release(partitions);
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
