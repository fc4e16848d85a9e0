package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

/**
 * A supervised Streams application on the real broker, exactly-once, whose processor (or global store updater) keeps
 * throwing on one record until the test clears the fault: new clients after a backoff while it fails, readiness DOWN
 * meanwhile, UP once a client runs again, every record counted once in the state and the output.
 */
@ExtendWith(KafkaBrokerExtension.class)
class StreamsApplicationIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int PARTITIONS = 3;
    private static final int KEYS = 10;
    private static final String POISON = "poison";
    private static final String COUNTS = "counts";
    private static final String SEEN = "seen";

    private KafkaBroker broker;
    private String in;
    private String out;
    private String global;
    private KafkaClients clients;
    private KafkaProducer<String, String> producer;
    private final AtomicBoolean processorFails = new AtomicBoolean();
    private final AtomicBoolean globalFails = new AtomicBoolean();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private StreamsApplication app;
    private ComponentsReadiness readiness;

    @BeforeEach
    void setUp() {
        String prefix = broker.uniquePrefix();
        in = prefix + "in";
        out = prefix + "out";
        global = prefix + "global";
        broker.createTopics(PARTITIONS, in, out);
        broker.createTopics(1, global);
        Map<String, String> superUser = new HashMap<>();
        broker.clientProperties().forEach((k, v) -> superUser.put(k, String.valueOf(v)));
        superUser.remove("bootstrap.servers");
        clients = new KafkaClients(new KafkaSettings(broker.bootstrapServers(), prefix, superUser));
        producer = new KafkaProducer<>(broker.clientProperties(), new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.stop(Duration.ofSeconds(10));
        }
        producer.close();
        clients.close();
    }

    @Test
    void shouldReplaceTheClientWithBackoffWhileItsProcessorThrowsAndLoseNothing() {
        start();
        List<String> sent = send(0, 100);
        waiting().until(() -> isReady() && outputs().size() == 100);

        processorFails.set(true);
        sent.add(sendOne("k0", POISON));
        sent.addAll(send(100, 200));

        waiting().until(() -> !isReady());
        assertThat(app.health().state()).isEqualTo(State.RECOVERING);
        waiting().until(() -> app.health().restarts() >= 2);
        assertThat(isReady()).as("still failing on the poison").isFalse();

        processorFails.set(false);

        waiting().until(this::isReady);
        waiting().until(() -> outputs().size() >= sent.size());
        assertThat(app.health().state()).isEqualTo(State.RUNNING);
        assertThat(restartsCounted()).isEqualTo(app.health().restarts());
        app.stop(Duration.ofSeconds(10));
        assertCountedOnce(sent, outputs());
    }

    @Test
    void shouldReplaceAClientInErrorAfterItsGlobalThreadDied() {
        start();
        send(0, 10);
        waiting().until(this::isReady);

        globalFails.set(true);
        sendGlobal("pool-a", POISON);

        waiting().until(() -> !isReady() && app.health().restarts() >= 1);
        assertThat(app.health().state()).isEqualTo(State.RECOVERING);
        globalFails.set(false);

        waiting().until(this::isReady);
        List<String> after = send(10, 20);
        waiting().until(() -> outputs().stream()
                .map(o -> o.substring(0, o.indexOf('#')))
                .toList()
                .containsAll(after));
        ReadOnlyKeyValueStore<String, String> seen = app.store(
                        StoreQueryParameters.fromNameAndType(SEEN, QueryableStoreTypes.<String, String>keyValueStore()))
                .orElseThrow();
        assertThat(seen.get("pool-a")).isEqualTo(POISON);
    }

    private void start() {
        Properties properties = new Properties();
        properties.putAll(clients.streamsConfig(broker.uniqueGroupId("streams-it")));
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        properties.put("consumer.auto.offset.reset", "earliest");
        try {
            properties.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    Files.createTempDirectory("streams-it").toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        app = StreamsApplication.builder("counter", this::topology, properties)
                .backoff(Duration.ofMillis(200), Duration.ofSeconds(1))
                .metrics(registry)
                .build();
        ServiceLifecycle lifecycle = new ServiceLifecycle(List.of(app), new LifecycleSettings(Duration.ofSeconds(10)));
        readiness = new ComponentsReadiness(lifecycle);
        lifecycle.start();
    }

    /** in → count per key (a changelogged store) → out as "value#count"; global → the "seen" store. */
    private Topology topology() {
        Topology topology = new Topology();
        topology.addSource("in", new StringDeserializer(), new StringDeserializer(), in);
        topology.addProcessor("count", () -> new Counting(processorFails), "in");
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(COUNTS), Serdes.String(), Serdes.Long()),
                "count");
        topology.addSink("out", out, new StringSerializer(), new StringSerializer(), "count");
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEEN), Serdes.String(), Serdes.String())
                        .withLoggingDisabled(),
                "global-in",
                new StringDeserializer(),
                new StringDeserializer(),
                global,
                "seen",
                () -> new Seen(globalFails));
        return topology;
    }

    /** Each key's values are numbered 1, 2, 3... in offset order: the numbering is the exactly-once state. */
    private static void assertCountedOnce(List<String> sent, List<String> outputs) {
        assertThat(outputs).doesNotHaveDuplicates().hasSize(sent.size());
        Map<String, List<String>> byKey = new HashMap<>();
        for (String output : outputs) {
            String key = output.substring(0, output.indexOf('='));
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(output.substring(output.indexOf('#') + 1));
        }
        byKey.forEach((key, numbers) -> {
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= numbers.size(); i++) {
                expected.add(Integer.toString(i));
            }
            assertThat(numbers).as("numbers of %s", key).isEqualTo(expected);
        });
    }

    private static ConditionFactory waiting() {
        return await().atMost(WAIT).pollInterval(Duration.ofMillis(250));
    }

    private boolean isReady() {
        HealthResult result = Mono.from(readiness.getResult()).block(Duration.ofSeconds(5));
        return result.getStatus().equals(HealthStatus.UP);
    }

    private double restartsCounted() {
        return registry.scrape().stream()
                .filter(CounterSnapshot.class::isInstance)
                .filter(m -> m.getMetadata().getName().equals("gpuaas_streams_restarts"))
                .flatMap(m -> ((CounterSnapshot) m).getDataPoints().stream())
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }

    /** Values "k<i % KEYS>=v<i>" for i in [from, to), as sent. */
    private List<String> send(int from, int to) {
        List<String> sent = new ArrayList<>();
        for (int i = from; i < to; i++) {
            sent.add(sendOne("k" + (i % KEYS), "v" + i));
        }
        producer.flush();
        return sent;
    }

    private String sendOne(String key, String value) {
        producer.send(new ProducerRecord<>(in, key, key + "=" + value));
        producer.flush();
        return key + "=" + value;
    }

    private void sendGlobal(String key, String value) {
        producer.send(new ProducerRecord<>(global, key, value));
        producer.flush();
    }

    /** Every committed output "key=value#n", read to the last stable offset of each partition. */
    private List<String> outputs() {
        Map<String, Object> config = broker.clientProperties();
        config.put("isolation.level", "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(out, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
        }
        return values;
    }

    /** Numbers each key's values; throws on the poison record while {@code fails} is set. */
    private static final class Counting implements Processor<String, String, String, String> {
        private final AtomicBoolean fails;
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, Long> counts;

        Counting(AtomicBoolean fails) {
            this.fails = fails;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.counts = context.getStateStore(COUNTS);
        }

        @Override
        public void process(Record<String, String> record) {
            if (record.value().endsWith(POISON) && fails.get()) {
                throw new IllegalStateException("processor refuses the poison record");
            }
            Long before = counts.get(record.key());
            long n = before == null ? 1 : before + 1;
            counts.put(record.key(), n);
            context.forward(record.withValue(record.value() + "#" + n));
        }
    }

    /** Keeps the newest value per key of the global topic; throws on the poison value while {@code fails} is set. */
    private static final class Seen implements Processor<String, String, Void, Void> {
        private final AtomicBoolean fails;
        private KeyValueStore<String, String> seen;

        Seen(AtomicBoolean fails) {
            this.fails = fails;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            this.seen = context.getStateStore(SEEN);
        }

        @Override
        public void process(Record<String, String> record) {
            if (POISON.equals(record.value()) && fails.get()) {
                throw new IllegalStateException("global updater refuses the poison record");
            }
            seen.put(record.key(), record.value());
        }
    }
}
