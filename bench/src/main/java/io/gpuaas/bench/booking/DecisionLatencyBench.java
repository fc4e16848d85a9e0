package io.gpuaas.bench.booking;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;

import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.booking.budget.BudgetDecider;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.booking.model.LifecycleRules;
import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.booking.stream.BookingTopology;
import io.gpuaas.booking.stream.BudgetTopology;
import io.gpuaas.booking.stream.DecisionOutcome;
import io.gpuaas.booking.stream.LifecycleOutcomes;
import io.gpuaas.booking.stream.LifecycleTopology;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * Command → decision latency through the real decision topology on a real broker, at a fixed open-loop rate
 * (latency counted from the intended send time, so a stall is not hidden), beside the raw produce → consume
 * round trip of the same broker; and the saturated decision rate. A create takes the path an HTTP create takes
 * ({@link Route#BUDGET_STAGE}): to its tenant's budget stage on {@code gpuaas.budget-commands}, which forwards it to the
 * pool's writer; {@link Route#DIRECT} writes it to the pool's topic itself, skipping that hop.
 */
final class DecisionLatencyBench {

    /**
     * @param toProcessedMicros intended send → the decision task processed the command (produce + task fetch)
     * @param toReadMicros      processed → the committed decision was read back (commit wait, commit, markers, fetch)
     * @param engine            Kafka Streams and transaction figures over the run
     * @param jvm               JIT compile and GC time of this JVM (broker, engine and clients) during the run
     */
    record Result(
            String name,
            long count,
            double seconds,
            Histogram latencyMicros,
            Histogram toProcessedMicros,
            Histogram toReadMicros,
            String engine,
            JvmActivity jvm) {
        double perSecond() {
            return count / seconds;
        }

        /** The cells every report's row of a run starts with: name, count, seconds, per second, p50, p99 and max ms. */
        String leadingCells() {
            return String.format(
                    Locale.ROOT,
                    "%s | %d | %.1f | %.0f | %.1f | %.1f | %.1f",
                    name,
                    count,
                    seconds,
                    perSecond(),
                    latencyMicros.getValueAtPercentile(50) / 1000.0,
                    latencyMicros.getValueAtPercentile(99) / 1000.0,
                    latencyMicros.getMaxValue() / 1000.0);
        }

        /** The same figures under another name (a warm-up round's rows). */
        Result named(String label) {
            return new Result(label, count, seconds, latencyMicros, toProcessedMicros, toReadMicros, engine, jvm);
        }
    }

    private final KafkaBroker broker;
    private final String prefix;
    private final String applicationId;
    /** booking-service's client settings: its own user with exactly its ACLs (nothing but the address when open). */
    private final Map<String, Object> service;

    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Recorder recorder = new Recorder(3);
    private final Recorder toProcessed = new Recorder(3);
    private final Recorder toRead = new Recorder(3);
    private final Map<String, Long> processedAt = new ConcurrentHashMap<>();
    private final Map<String, String> streamsOverrides;
    private KafkaStreams engine;
    private final AtomicLong answered = new AtomicLong();
    /** Makes the commands; the default repeats the same seeded mix over four static pools in every run. */
    private Commands commands = DecisionLatencyBench::command;
    /** With another command source, each run draws from its own seed (so runs do not repeat the same windows). */
    private long seed = 1;
    /** How long a run waits for its last answers. */
    private long answerTimeoutMillis = 120_000;
    /** Told of every decision the reader reads (on the reader thread), for the flexible bench's tallies. */
    private volatile java.util.function.Consumer<BookingEvent> onDecision = e -> {};

    /** Where a run's creates are written. */
    enum Route {
        /** As booking-service's {@code CommandPublisher}: a {@code HoldCreate} keyed by tenant on budget-commands. */
        BUDGET_STAGE,
        /** Straight to booking-commands, keyed by pool (no HTTP create takes this path; the hop's cost beside it). */
        DIRECT
    }

    /** The label of the rows whose creates went {@link Route#DIRECT}. */
    static final String DIRECT_LABEL = "direct to the pool's topic: ";

    /** The commands of a run: the {@code i}-th command, drawing from {@code random}. */
    @FunctionalInterface
    interface Commands {
        CreateBooking next(Random random, long i);
    }

    /** Use {@code source} for the commands from now on; every later run draws from a fresh seed. */
    void commands(Commands source, java.util.function.Consumer<BookingEvent> decided) {
        this.commands = source;
        this.onDecision = decided;
        this.seed = 1_000;
        // A run that falls behind (the flexible decider at a high occupancy) still has every answer counted.
        this.answerTimeoutMillis = 900_000;
    }

    DecisionLatencyBench(KafkaBroker broker, Map<String, String> streamsOverrides) throws Exception {
        this.broker = broker;
        this.streamsOverrides = streamsOverrides;
        this.prefix = broker.uniquePrefix();
        this.applicationId = broker.uniqueGroupId("bench-booking");
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        // The decision path runs as booking-service does in production: the engine, the command producer (its
        // CommandPublisher) and the decision reader (its awaiter) authenticate as its user and pass its ACLs.
        this.service = new HashMap<>(broker.serviceCredentials(
                BOOKING_SERVICE.userName(), KafkaAccess.acls(BOOKING_SERVICE, prefix, applicationId)));
        service.put("bootstrap.servers", broker.bootstrapServers());
    }

    /**
     * The lifecycle sub-topology beside the decisions, as booking-service runs them.
     *
     * @param pools    the catalog the decider and the lifecycle use (its pools' no-show grace)
     * @param policy   the decider's policy
     * @param rules    the lifecycle's rules
     * @param interval how often the lifecycle looks at the active bookings
     */
    record Lifecycle(PoolCatalog pools, BookingPolicy policy, LifecycleRules rules, Duration interval) {}

    /** The decisions alone, on the default catalog and policy (the lifecycle sub-topology left out). */
    KafkaStreams startEngine() throws Exception {
        return startEngine(PoolCatalog.load(java.util.Optional.empty()), BookingPolicy.DEFAULT, null);
    }

    /** The decisions alone, on {@code pools} and the default policy (the lifecycle sub-topology left out). */
    KafkaStreams startEngine(PoolCatalog pools) throws Exception {
        return startEngine(pools, BookingPolicy.DEFAULT, null);
    }

    /** The decisions and, when {@code lifecycle} is given, the lifecycle over the same catalog. */
    KafkaStreams startEngine(Lifecycle lifecycle) throws Exception {
        return startEngine(lifecycle.pools(), lifecycle.policy(), lifecycle);
    }

    /** The topic prefix of this bench's topics. */
    String prefix() {
        return prefix;
    }

    /** booking-service's client settings (its user and ACLs) on this broker. */
    Map<String, Object> service() {
        return Map.copyOf(service);
    }

    private KafkaStreams startEngine(PoolCatalog pools, BookingPolicy policy, Lifecycle lifecycle) throws Exception {
        BookingDecider decider = new BookingDecider(pools, policy);
        Properties props = new Properties();
        props.putAll(service);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("bench-booking").toString());
        // The service's own engine settings (gpuaas.booking.engine.* defaults), then any --streams experiment.
        props.putAll(EngineTuning.defaults().streamsProperties());
        props.putAll(streamsOverrides);
        // The service's own dead-letter wiring: unreadable and invalid commands go through one publisher.
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                new KafkaProducer<>(service, new ByteArraySerializer(), new ByteArraySerializer()),
                Topics.DEAD_LETTER.name(prefix),
                "booking-service",
                new PrometheusRegistry());
        props.putAll(BookingTopology.errorHandling(deadLetters));
        Topology topology =
                BookingTopology.build(prefix, decider, Duration.ofMillis(200), Duration.ofDays(7), this::processed);
        if (lifecycle != null) {
            LifecycleTopology.addTo(
                    topology,
                    prefix,
                    lifecycle.rules(),
                    new WorkloadCells(pools),
                    lifecycle.interval(),
                    deadLetters,
                    LifecycleOutcomes.IGNORED);
        }
        // As the service's DecisionEngine: every create passes its tenant's budget stage in the same application.
        BudgetTopology.addTo(topology, prefix, new BudgetDecider(pools, policy));
        KafkaStreams streams = new KafkaStreams(topology, props);
        streams.start();
        long deadline = System.currentTimeMillis() + 120_000;
        while (streams.state() != KafkaStreams.State.RUNNING && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        engine = streams;
        return streams;
    }

    /** Called on the stream thread right after a command was decided: the first stage ends here. */
    private void processed(DecisionOutcome outcome) {
        String id = requestIdOf(outcome.answer());
        if (id != null) {
            processedAt.put(id, System.nanoTime());
        }
    }

    /** Creates through the budget stage at {@code rate}/s for {@code seconds}, or as fast as they go. */
    Result decisions(int rate, int seconds, boolean saturate) throws Exception {
        return decisions(rate, (long) rate * seconds, saturate, Route.BUDGET_STAGE);
    }

    /**
     * {@code total} creates at {@code rate}/s (or as fast as they go), written by {@code route}; latency from the
     * intended send to the committed decision read (a budget refusal is the stage's own answer, a decision too).
     */
    Result decisions(int rate, long total, boolean saturate, Route route) throws Exception {
        String events = Topics.BOOKING_EVENTS.name(prefix);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread reader = reader(service, events, running, true);
        reset();
        EngineStats before = EngineStats.of(engine);
        JvmActivity jvm = JvmActivity.now();
        long start = System.nanoTime();
        try (Sender sender = new Sender(route)) {
            Random random = new Random(seed == 1 ? 1 : seed++);
            for (long i = 0; i < total; i++) {
                long intended = saturate ? System.nanoTime() : start + i * 1_000_000_000L / rate;
                pace(intended);
                CreateBooking command = commands.next(random, i);
                sentAt.put(command.requestId(), intended);
                sender.send(command);
            }
        }
        awaitAnswers(total);
        double elapsed = (System.nanoTime() - start) / 1e9;
        running.set(false);
        reader.join();
        return new Result(
                (route == Route.DIRECT ? DIRECT_LABEL : "")
                        + (saturate ? "decisions, saturated" : "decisions at " + rate + "/s"),
                answered.get(),
                elapsed,
                recorder.getIntervalHistogram(),
                toProcessed.getIntervalHistogram(),
                toRead.getIntervalHistogram(),
                EngineStats.of(engine).since(before, elapsed),
                JvmActivity.since(jvm));
    }

    /** booking-service's command producers: a create goes to its tenant's budget stage, or straight to its pool. */
    private final class Sender implements AutoCloseable {
        private final Route route;
        /** The one producer the route writes with (the other stays null). */
        private final KafkaProducer<String, BudgetCommand> budget;

        private final KafkaProducer<String, BookingCommand> pools;

        Sender(Route route) {
            this.route = route;
            this.budget = route == Route.BUDGET_STAGE
                    ? producer(service, Topics.BUDGET_COMMANDS.valueSerde().serializer())
                    : null;
            this.pools = route == Route.DIRECT
                    ? producer(service, Topics.BOOKING_COMMANDS.valueSerde().serializer())
                    : null;
        }

        void send(CreateBooking command) {
            switch (route) {
                case BUDGET_STAGE -> {
                    String tenant = command.caller().tenant();
                    budget.send(new ProducerRecord<>(
                            Topics.BUDGET_COMMANDS.name(prefix),
                            tenant,
                            new BudgetCommand.HoldCreate(tenant, command)));
                }
                case DIRECT ->
                    pools.send(new ProducerRecord<>(Topics.BOOKING_COMMANDS.name(prefix), command.pool(), command));
            }
        }

        @Override
        public void close() {
            if (budget != null) {
                budget.close();
            }
            if (pools != null) {
                pools.close();
            }
        }
    }

    /** The same pattern on a plain topic: idempotent acks=all produce, read_committed consume. */
    Result rawRoundTrip(int rate, int seconds) throws Exception {
        String topic = prefix + "bench-raw";
        broker.createTopics(12, topic);
        AtomicBoolean running = new AtomicBoolean(true);
        // The baseline: the broker's super user, which the authorizer lets through without an ACL lookup.
        Thread reader = reader(broker.clientProperties(), topic, running, false);
        reset();
        JvmActivity jvm = JvmActivity.now();
        long total = (long) rate * seconds;
        long start = System.nanoTime();
        try (KafkaProducer<String, byte[]> producer = producer(broker.clientProperties(), new ByteArraySerializer())) {
            for (long i = 0; i < total; i++) {
                long intended = start + i * 1_000_000_000L / rate;
                pace(intended);
                String id = UUID.randomUUID().toString();
                sentAt.put(id, intended);
                producer.send(new ProducerRecord<>(topic, id, new byte[300]));
            }
        }
        awaitAnswers(total);
        double elapsed = (System.nanoTime() - start) / 1e9;
        running.set(false);
        reader.join();
        return new Result(
                "raw produce→consume at " + rate + "/s",
                answered.get(),
                elapsed,
                recorder.getIntervalHistogram(),
                null,
                null,
                "",
                JvmActivity.since(jvm));
    }

    private void reset() {
        recorder.reset();
        toProcessed.reset();
        toRead.reset();
        processedAt.clear();
        answered.set(0);
    }

    private Thread reader(Map<String, Object> client, String topic, AtomicBoolean running, boolean decisions) {
        Map<String, Object> config = new HashMap<>(client);
        config.put("isolation.level", "read_committed");
        config.put("fetch.max.wait.ms", 20);
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        var partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        var deserializer = Topics.BOOKING_EVENTS.valueSerde().deserializer();
        Thread thread = new Thread(
                () -> {
                    try (consumer) {
                        while (running.get()) {
                            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                                String id;
                                if (decisions) {
                                    BookingEvent event = deserializer.deserialize(topic, r.headers(), r.value());
                                    id = requestIdOf(event);
                                    if (id != null) {
                                        onDecision.accept(event);
                                    }
                                } else {
                                    id = r.key();
                                }
                                record(id, System.nanoTime());
                            }
                        }
                    }
                },
                "bench-reader");
        thread.start();
        return thread;
    }

    private void record(String id, long readAt) {
        Long intended = id == null ? null : sentAt.remove(id);
        if (intended == null) {
            return;
        }
        recorder.recordValue(Math.max(1, (readAt - intended) / 1_000));
        Long processed = processedAt.remove(id);
        if (processed != null) {
            toProcessed.recordValue(Math.max(1, (processed - intended) / 1_000));
            toRead.recordValue(Math.max(1, (readAt - processed) / 1_000));
        }
        answered.incrementAndGet();
    }

    private void awaitAnswers(long total) throws InterruptedException {
        long deadline = System.currentTimeMillis() + answerTimeoutMillis;
        while (answered.get() < total && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
    }

    private static String requestIdOf(BookingEvent event) {
        return switch (event) {
            case BookingEvent.BookingConfirmed e -> e.requestId();
            case BookingEvent.BookingRejected e -> e.requestId();
            default -> null;
        };
    }

    private static final List<String> POOLS =
            List.of("h200", "h200-mig-1g.18gb", "h200-mig-2g.35gb", "h200-mig-3g.71gb");
    private static final Instant BASE = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.DAYS);

    private static CreateBooking command(Random random, long i) {
        Instant start = BASE.plus(Duration.ofMinutes(15L * random.nextInt(80 * 96)));
        Instant end = start.plus(Duration.ofMinutes(15L * (1 + random.nextInt(16))));
        Caller caller = new Caller("bench", "team-" + (i % 20), false);
        return new CreateBooking(
                UUID.randomUUID().toString(),
                null,
                caller,
                POOLS.get((int) (i % POOLS.size())),
                UUID.randomUUID().toString(),
                caller.tenant(),
                1 + random.nextInt(2),
                start,
                end,
                null,
                Instant.now());
    }

    private static <V> KafkaProducer<String, V> producer(
            Map<String, Object> client, org.apache.kafka.common.serialization.Serializer<V> values) {
        Map<String, Object> config = new HashMap<>(client);
        config.put("enable.idempotence", true);
        config.put("acks", "all");
        config.put("linger.ms", 0);
        return new KafkaProducer<>(config, new StringSerializer(), values);
    }

    private static void pace(long intendedNanos) {
        long wait = intendedNanos - System.nanoTime();
        if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
        }
    }
}
