package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The supervision of {@link StreamsApplication} with scripted clients: no broker, no Streams threads. */
class StreamsApplicationTest {

    private static final Duration GRACE = Duration.ofSeconds(2);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<Scripted> clients = new CopyOnWriteArrayList<>();
    private final AtomicInteger refusals = new AtomicInteger();
    private StreamsApplication app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.stop(GRACE);
        }
    }

    @Test
    void shouldReplaceAClientInErrorAfterABackoffAndBeReadyOnlyOnceTheNewOneRuns() {
        app = build(new StreamsApplication.Builder("decisions", "gpuaas-test").backoff(ms(200), ms(400)));
        app.start();
        Scripted first = awaitClient(0);
        first.to(KafkaStreams.State.REBALANCING);
        assertThat(app.health().ready())
                .as("rebalancing before the first RUNNING")
                .isFalse();
        first.to(KafkaStreams.State.RUNNING);
        assertThat(app.health().ready()).isTrue();

        first.to(KafkaStreams.State.ERROR);
        long failedAt = System.nanoTime();

        assertThat(app.health().state()).isEqualTo(State.RECOVERING);
        Scripted second = awaitClient(1);
        assertThat(Duration.ofNanos(second.createdAt - failedAt))
                .as("at least the lower half of the first backoff")
                .isGreaterThanOrEqualTo(ms(100));
        assertThat(first.closed).isTrue();
        assertThat(first.leftGroup).as("its partitions move at once").isTrue();
        second.to(KafkaStreams.State.REBALANCING);
        assertThat(app.health().state()).as("until the new client runs").isEqualTo(State.RECOVERING);
        second.to(KafkaStreams.State.RUNNING);
        assertThat(app.health()).satisfies(h -> {
            assertThat(h.ready()).isTrue();
            assertThat(h.restarts()).isEqualTo(1);
        });
        assertThat(counter(StreamsMetrics.RESTARTS)).isEqualTo(1.0);
        assertThat(gauge(StreamsMetrics.STATE, "RUNNING")).isEqualTo(1.0);
        assertThat(gauge(StreamsMetrics.STATE, "ERROR")).isEqualTo(0.0);
    }

    @Test
    void shouldShutTheClientDownAndReplaceItWhenAStreamThreadDies() {
        app = build(new StreamsApplication.Builder("reclaim", "gpuaas-test").backoff(ms(10), ms(20)));
        app.start();
        Scripted first = awaitClient(0);
        first.to(KafkaStreams.State.RUNNING);

        StreamThreadExceptionResponse response =
                first.failures.handle(new StreamsException(new IllegalStateException("processor threw")));

        assertThat(response).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(app.health().state()).as("before the client reports ERROR").isEqualTo(State.RECOVERING);
        assertThat(app.health().detail()).contains("processor threw");
        first.to(KafkaStreams.State.PENDING_ERROR);
        first.to(KafkaStreams.State.ERROR);
        awaitClient(1).to(KafkaStreams.State.RUNNING);
        assertThat(app.health().restarts()).as("one failure, counted once").isEqualTo(1);
        assertThat(app.health().ready()).isTrue();
    }

    @Test
    void shouldDoubleTheBackoffWhileNewClientsKeepFailing() {
        app = build(new StreamsApplication.Builder("decisions", "gpuaas-test").backoff(ms(100), ms(10_000)));
        app.start();
        awaitClient(0).to(KafkaStreams.State.ERROR);
        Scripted second = awaitClient(1);
        second.to(KafkaStreams.State.ERROR);
        long failedAt = System.nanoTime();

        Scripted third = awaitClient(2);

        assertThat(Duration.ofNanos(third.createdAt - failedAt))
                .as("second attempt: at least half of 200 ms")
                .isGreaterThanOrEqualTo(ms(100));
        assertThat(app.health().detail()).contains("2 failure(s) in a row");
        third.to(KafkaStreams.State.RUNNING);
        assertThat(app.health().ready()).isTrue();
        assertThat(app.health().restarts()).isEqualTo(2);
    }

    @Test
    void shouldDieAndStartNoOtherClientWhenAThreadDiesOfAJvmError() {
        app = build(new StreamsApplication.Builder("decisions", "gpuaas-test").backoff(ms(10), ms(20)));
        app.start();
        Scripted first = awaitClient(0);
        first.to(KafkaStreams.State.RUNNING);

        first.failures.handle(new StreamsException(new OutOfMemoryError("heap")));
        first.to(KafkaStreams.State.ERROR);

        await().until(() -> first.closed);
        assertThat(app.health().state()).isEqualTo(State.DEAD);
        assertThat(app.health().alive()).isFalse();
        app.stop(GRACE);
        assertThat(clients).hasSize(1);
    }

    @Test
    void shouldStartTheFirstClientOnlyOnceTheStartConditionHolds() {
        AtomicBoolean synced = new AtomicBoolean();
        AtomicInteger polls = new AtomicInteger();
        app = build(new StreamsApplication.Builder("reclaim", "gpuaas-test")
                .startWhen(
                        "informers synced",
                        () -> {
                            polls.incrementAndGet();
                            return synced.get();
                        },
                        Duration.ofMinutes(5)));
        app.start();
        await().until(() -> polls.get() >= 3);

        assertThat(clients).isEmpty();
        assertThat(app.health().state()).isEqualTo(State.STARTING);
        assertThat(app.health().detail()).contains("waiting for informers synced");

        synced.set(true);
        awaitClient(0).to(KafkaStreams.State.RUNNING);
        assertThat(app.health().ready()).isTrue();
    }

    @Test
    void shouldRetryAClientThatCannotBeCreated() {
        refusals.set(1);
        app = build(new StreamsApplication.Builder("decisions", "gpuaas-test").backoff(ms(10), ms(20)));
        app.start();

        awaitClient(0).to(KafkaStreams.State.RUNNING);

        assertThat(app.health().ready()).isTrue();
        assertThat(app.health().restarts()).isEqualTo(1);
    }

    @Test
    void shouldCloseTheClientWithinTheGraceLeavingTheGroupOnStop() {
        app = build(new StreamsApplication.Builder("decisions", "gpuaas-test"));
        app.start();
        Scripted first = awaitClient(0);
        first.to(KafkaStreams.State.RUNNING);

        app.stop(Duration.ofSeconds(3));

        assertThat(first.closedWithin).isEqualTo(Duration.ofSeconds(3));
        assertThat(first.leftGroup).isTrue();
        assertThat(app.health().state()).isEqualTo(State.STOPPED);
        assertThat(app.store(StoreQueryParameters.fromNameAndType("any", null)))
                .as("a stopped client answers no query")
                .isEmpty();
    }

    @Test
    void shouldStopWhileWaitingForTheStartCondition() {
        app = build(new StreamsApplication.Builder("reclaim", "gpuaas-test")
                .startWhen("never", () -> false, Duration.ofMinutes(5)));
        app.start();

        app.stop(GRACE);

        assertThat(app.health().state()).isEqualTo(State.STOPPED);
        assertThat(clients).isEmpty();
    }

    private StreamsApplication build(StreamsApplication.Builder builder) {
        return builder.metrics(registry)
                .clients((states, failures) -> {
                    if (refusals.getAndDecrement() > 0) {
                        throw new IllegalStateException("state directory locked");
                    }
                    Scripted client = new Scripted(states, failures);
                    clients.add(client);
                    return client;
                })
                .build();
    }

    private Scripted awaitClient(int index) {
        await().atMost(Duration.ofSeconds(10)).until(() -> clients.size() > index && clients.get(index).started);
        return clients.get(index);
    }

    private double counter(String name) {
        return registry.scrape().stream()
                .filter(CounterSnapshot.class::isInstance)
                .filter(m -> name.startsWith(m.getMetadata().getName()))
                .flatMap(m -> ((CounterSnapshot) m).getDataPoints().stream())
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }

    private double gauge(String name, String state) {
        return registry.scrape().stream()
                .filter(GaugeSnapshot.class::isInstance)
                .filter(m -> m.getMetadata().getName().equals(name))
                .flatMap(m -> ((GaugeSnapshot) m).getDataPoints().stream())
                .filter(d -> d.getLabels().equals(Labels.of("application", app.name(), "state", state)))
                .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue)
                .sum();
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    /** A client whose state the test moves; it reports each move as Kafka Streams would. */
    private static final class Scripted implements StreamsClient {
        private final KafkaStreams.StateListener states;
        private final StreamsUncaughtExceptionHandler failures;
        private final long createdAt = System.nanoTime();
        private volatile KafkaStreams.State state = KafkaStreams.State.CREATED;
        private volatile boolean started;
        private volatile boolean closed;
        private volatile boolean leftGroup;
        private volatile Duration closedWithin;

        Scripted(KafkaStreams.StateListener states, StreamsUncaughtExceptionHandler failures) {
            this.states = states;
            this.failures = failures;
        }

        void to(KafkaStreams.State next) {
            KafkaStreams.State before = state;
            state = next;
            states.onChange(next, before);
        }

        @Override
        public void start() {
            started = true;
        }

        @Override
        public KafkaStreams.State state() {
            return state;
        }

        @Override
        public void close(Duration timeout, boolean leaveGroup) {
            closed = true;
            leftGroup = leaveGroup;
            closedWithin = timeout;
            state = KafkaStreams.State.NOT_RUNNING;
        }

        @Override
        public <T> T store(StoreQueryParameters<T> parameters) {
            throw new org.apache.kafka.streams.errors.InvalidStateStoreException("not running");
        }
    }
}
