package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TopicReplicaTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SHORT = Duration.ofMillis(5);

    private final TopicSpec<String, Integer> counts = FakeLog.topic("counts", 2, true);
    private final FakeLog log = new FakeLog("t.counts", 2);
    private final MockProducer<byte[], byte[]> deadLetterProducer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final DeadLetterPublisher deadLetters =
            new DeadLetterPublisher(deadLetterProducer, "t.dead-letter", "replica-test", new PrometheusRegistry());
    private final List<String> applied = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> table = new ConcurrentHashMap<>();
    private TopicReplica replica;

    @AfterEach
    void stop() {
        if (replica != null) {
            replica.stop(Duration.ofSeconds(5));
        }
    }

    private TopicReplica.Builder builder(TopicReplica.RecordHandler<Integer> handler) {
        return TopicReplica.builder("counts-replica", log.consumers(), "t.", deadLetters)
                .follow(counts, StartAt.BEGINNING, handler)
                .backoff(SHORT, SHORT);
    }

    private void record(String key, Integer value) {
        applied.add(key + "=" + value);
        if (value == null) {
            table.remove(key);
        } else {
            table.put(key, value);
        }
    }

    @Test
    void shouldBeReadyOnlyWhenTheRecordsThatExistedAtStartAreApplied() throws Exception {
        log.append(0, "a", "1");
        log.append(0, "b", "2");
        log.append(1, "c", "3");
        AtomicInteger calls = new AtomicInteger();
        replica = builder((key, value) -> {
                    if (calls.incrementAndGet() == 1) {
                        assertThat(replica.caughtUp()).isFalse();
                        assertThat(replica.health().ready()).isFalse();
                    }
                    record(key, value);
                })
                .build();
        assertThat(replica.health().state()).isEqualTo(State.STARTING);
        replica.start();

        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(table).containsOnly(Map.entry("a", 1), Map.entry("b", 2), Map.entry("c", 3));
        await().atMost(WAIT).until(() -> replica.health().ready());
    }

    @Test
    void shouldApplyADeleteWhenATombstoneArrivesOnACompactedTopic() throws Exception {
        log.append(0, "a", "1");
        log.append(0, "a", null);
        replica = builder(this::record).build();
        replica.start();
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(applied).containsExactly("a=1", "a=null");
        assertThat(table).isEmpty();
    }

    @Test
    void shouldRetryAFailingHandlerWhileRecoveringAndApplyEveryRecordOnce() throws Exception {
        log.append(0, "a", "1");
        log.append(0, "b", "2");
        AtomicInteger failuresLeft = new AtomicInteger(3);
        List<State> seenWhileFailing = new CopyOnWriteArrayList<>();
        replica = builder((key, value) -> {
                    if (key.equals("b") && failuresLeft.getAndDecrement() > 0) {
                        seenWhileFailing.add(replica.health().state());
                        throw new IllegalStateException("view not ready");
                    }
                    record(key, value);
                })
                .handlerRetries(5)
                .build();
        replica.start();

        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(applied).containsExactly("a=1", "b=2");
        assertThat(seenWhileFailing).hasSize(3).contains(State.RECOVERING);
        assertThat(replica.health().state()).isEqualTo(State.RUNNING);
        assertThat(deadLetterProducer.history()).isEmpty();
    }

    @Test
    void shouldDeadLetterARecordAndMoveOnWhenTheHandlerKeepsFailing() throws Exception {
        log.append(0, "poison", "1");
        log.append(0, "fine", "2");
        replica = builder((key, value) -> {
                    if (key.equals("poison")) {
                        throw new IllegalArgumentException("no such pool");
                    }
                    record(key, value);
                })
                .handlerRetries(3)
                .build();
        replica.start();

        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(applied).containsExactly("fine=2");
        assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> {
            assertThat(new String(letter.key(), StandardCharsets.UTF_8)).isEqualTo("poison");
            assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo("IllegalArgumentException");
        });
    }

    @Test
    void shouldDeadLetterAnUndecodableRecordAndMoveOn() throws Exception {
        log.append(1, "a", "not a number");
        log.append(1, "b", "7");
        replica = builder(this::record).build();
        replica.start();

        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(applied).containsExactly("b=7");
        assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> assertThat(
                        header(letter, DeadLetterPublisher.OFFSET))
                .isEqualTo("0"));
    }

    @Test
    void shouldResumeWithANewConsumerWithoutSkippingOrRepeatingWhenTheConsumerFails() throws Exception {
        log.append(0, "a", "1");
        replica = builder(this::record).build();
        replica.start();
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();

        log.failNextPoll(new TopicAuthorizationException("ACL revoked"));
        await().atMost(WAIT).until(() -> log.consumersCreated() == 2);
        log.append(0, "b", "2");
        log.append(1, "c", "3");
        await().atMost(WAIT).until(() -> applied.size() == 3);

        assertThat(applied).containsExactly("a=1", "b=2", "c=3");
        assertThat(replica.health().restarts()).isEqualTo(1);
        await().atMost(WAIT).until(() -> replica.health().ready());
    }

    @Test
    void shouldReplaceTheConsumerWhenTheBrokerStopsAnsweringTheProbe() throws Exception {
        replica = builder(this::record)
                .probe(Duration.ofMillis(10), Duration.ofSeconds(1))
                .build();
        replica.start();
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();

        log.failNextOffsetLookup(new org.apache.kafka.common.errors.TimeoutException("no answer in 1 s"));
        await().atMost(WAIT).until(() -> log.consumersCreated() == 2);
        log.append(0, "a", "1");
        await().atMost(WAIT).until(() -> !applied.isEmpty());
        assertThat(applied).containsExactly("a=1");
        assertThat(replica.health().restarts()).isEqualTo(1);
    }

    @Test
    void shouldRetryADeadLetterThatCannotBeWrittenInsteadOfSkippingTheRecord() throws Exception {
        AtomicInteger refusals = new AtomicInteger(2);
        MockProducer<byte[], byte[]> flaky =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer()) {
                    @Override
                    public synchronized java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>
                            send(ProducerRecord<byte[], byte[]> record) {
                        if (refusals.getAndDecrement() > 0) {
                            return java.util.concurrent.CompletableFuture.failedFuture(
                                    new org.apache.kafka.common.errors.TimeoutException(
                                            "dead-letter topic unreachable"));
                        }
                        return super.send(record);
                    }
                };
        log.append(0, "a", "garbage");
        log.append(0, "b", "2");
        replica = TopicReplica.builder(
                        "counts-replica",
                        log.consumers(),
                        "t.",
                        new DeadLetterPublisher(flaky, "t.dead-letter", "replica-test", new PrometheusRegistry()))
                .follow(counts, StartAt.BEGINNING, this::record)
                .backoff(SHORT, SHORT)
                .build();
        replica.start();

        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(flaky.history()).hasSize(1);
        assertThat(applied).containsExactly("b=2");
        assertThat(replica.health().restarts()).isEqualTo(2);
    }

    @Test
    void shouldWaitForATopicThatDoesNotExistYetAndReadItFromTheBeginning() throws Exception {
        log.missing();
        replica = builder(this::record).build();
        replica.start();
        await().atMost(WAIT).until(() -> replica.health().detail().contains("waiting for topics [t.counts]"));
        assertThat(replica.caughtUp()).isFalse();

        log.append(0, "a", "1");
        log.create();
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        assertThat(applied).containsExactly("a=1");
    }

    @Test
    void shouldSkipHistoryWhenFollowingFromTheEnd() throws Exception {
        log.append(0, "old", "1");
        replica = TopicReplica.builder("samples", log.consumers(), "t.", deadLetters)
                .follow(counts, StartAt.END, this::record)
                .build();
        replica.start();
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        log.append(0, "new", "2");
        await().atMost(WAIT).until(() -> !applied.isEmpty());
        assertThat(applied).containsExactly("new=2");
    }

    @Test
    void shouldBeDeadAndNotAliveWhenAnErrorEndsIt() {
        log.append(0, "a", "1");
        replica = builder((key, value) -> {
                    throw new StackOverflowError("a cycle in the bookings");
                })
                .build();
        replica.start();
        await().atMost(WAIT).until(() -> replica.health().state() == State.DEAD);
        assertThat(replica.health().alive()).isFalse();
    }

    @Test
    void shouldBeStoppedWhenStopped() throws Exception {
        replica = builder(this::record).build();
        replica.start();
        assertThat(replica.awaitCaughtUp(WAIT)).isTrue();
        replica.stop(Duration.ofSeconds(5));
        assertThat(replica.health().state()).isEqualTo(State.STOPPED);
        assertThat(replica.health().ready()).isFalse();
    }

    private static String header(ProducerRecord<byte[], byte[]> letter, String name) {
        return new String(letter.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
