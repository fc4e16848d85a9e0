package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared error path against a real broker: garbage goes to the dead-letter topic, the partition moves on. */
@ExtendWith(KafkaBrokerExtension.class)
class DeadLetterIT {

    static final byte[] GARBAGE = "{\"time\": oops".getBytes(StandardCharsets.UTF_8);

    static KafkaBroker broker;
    static String prefix;
    KafkaProducer<byte[], byte[]> producer;
    final PrometheusRegistry registry = new PrometheusRegistry();

    @BeforeAll
    static void createTopicsOnce() {
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            assertThat(TopicAdmin.createAll(admin, prefix)).hasSize(Topics.all().size());
            assertThat(TopicAdmin.createAll(admin, prefix))
                    .as("second run finds them all")
                    .isEmpty();
        }
    }

    @BeforeEach
    void createProducer() {
        Map<String, Object> props = broker.clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void closeProducer() {
        producer.close(Duration.ofSeconds(5));
    }

    @Test
    void shouldDeadLetterGarbageAndProcessTheNextGoodRecordWhenAConsumerUsesEventReader() throws Exception {
        String samples = Topics.GPU_SAMPLES.name(prefix);
        GpuScrape good = EventSamples.gpuScrape();
        byte[] key = good.key().getBytes(StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(
                        samples, null, key, GARBAGE, EventSerdesTest.headers("io.gpuaas.gpu.scrape.v1")))
                .get();
        RecordHeaders headers = new RecordHeaders();
        byte[] body = Topics.GPU_SAMPLES.valueSerde().serializer().serialize(samples, headers, good);
        producer.send(new ProducerRecord<>(samples, null, key, body, headers)).get();

        String group = broker.uniqueGroupId("metrics-gateway");
        EventReader<GpuScrapeEvent> reader = EventReader.of(
                Topics.GPU_SAMPLES,
                new DeadLetterPublisher(producer, Topics.DEAD_LETTER.name(prefix), group, registry));
        List<GpuScrapeEvent> processed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group)) {
            consumer.subscribe(List.of(samples));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200))
                        .forEach(raw -> reader.read(raw).ifPresent(processed::add));
                consumer.commitSync();
                return !processed.isEmpty();
            });
            TopicPartition partition = new TopicPartition(samples, partitionOf(consumer, samples));
            assertThat(consumer.committed(java.util.Set.of(partition))
                            .get(partition)
                            .offset())
                    .as("the partition moved past both records")
                    .isEqualTo(2);
        }

        assertThat(processed).containsExactly(good);
        ConsumerRecord<byte[], byte[]> letter = readOneDeadLetter(samples);
        assertThat(letter.key()).isEqualTo(key);
        assertThat(letter.value()).isEqualTo(GARBAGE);
        assertThat(header(letter, CloudEvents.TYPE)).isEqualTo("io.gpuaas.gpu.scrape.v1");
        assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo("BAD_JSON");
        assertThat(header(letter, DeadLetterPublisher.TOPIC)).isEqualTo(samples);
        assertThat(header(letter, DeadLetterPublisher.OFFSET)).isEqualTo("0");
        assertThat(header(letter, DeadLetterPublisher.GROUP)).isEqualTo(group);
        assertThat(DeadLetterPublisherTest.count(registry, samples, "BAD_JSON")).isEqualTo(1.0);
    }

    @Test
    void shouldDeadLetterAndKeepStreamingWhenAStreamsAppMeetsAnUnknownType() throws Exception {
        String commands = Topics.BOOKING_COMMANDS.name(prefix);
        producer.send(new ProducerRecord<>(
                        commands,
                        null,
                        "h200".getBytes(StandardCharsets.UTF_8),
                        "{}".getBytes(StandardCharsets.UTF_8),
                        EventSerdesTest.headers("io.gpuaas.booking.command.grab.v1")))
                .get();
        BookingCommand good = (BookingCommand) EventSamples.all().get(BookingCommand.CreateBooking.class);
        RecordHeaders headers = new RecordHeaders();
        byte[] body = Topics.BOOKING_COMMANDS.valueSerde().serializer().serialize(commands, headers, good);
        producer.send(new ProducerRecord<>(commands, null, "h200".getBytes(StandardCharsets.UTF_8), body, headers))
                .get();

        List<BookingCommand> seen = new CopyOnWriteArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(commands, Consumed.with(Serdes.String(), Topics.BOOKING_COMMANDS.valueSerde()))
                .foreach((k, v) -> seen.add(v));
        try (KafkaStreams streams = new KafkaStreams(builder.build(), streamsConfig())) {
            streams.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> !seen.isEmpty());
        }

        assertThat(seen).containsExactly(good);
        ConsumerRecord<byte[], byte[]> letter = readOneDeadLetter(commands);
        assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo("UNKNOWN_TYPE");
        assertThat(header(letter, DeadLetterPublisher.TOPIC)).isEqualTo(commands);
        assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("{}");
        assertThat(DeadLetterPublisherTest.count(registry, commands, "UNKNOWN_TYPE"))
                .isEqualTo(1.0);
    }

    private Properties streamsConfig() throws Exception {
        Properties props = new Properties();
        props.putAll(broker.clientProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, broker.uniqueGroupId("booking-decider"));
        props.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createTempDirectory("streams").toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterDeserializationHandler.class);
        props.put(DeadLetterDeserializationHandler.PREFIX_CONFIG, prefix);
        props.put(DeadLetterDeserializationHandler.REGISTRY_CONFIG, registry);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return props;
    }

    /** The dead letter from {@code sourceTopic}; both tests share the dead-letter topic. */
    private ConsumerRecord<byte[], byte[]> readOneDeadLetter(String sourceTopic) {
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(broker.uniqueGroupId("sre"))) {
            consumer.subscribe(List.of(Topics.DEAD_LETTER.name(prefix)));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (sourceTopic.equals(header(r, DeadLetterPublisher.TOPIC))) {
                        letters.add(r);
                    }
                });
                return !letters.isEmpty();
            });
        }
        assertThat(letters).hasSize(1);
        return letters.get(0);
    }

    private KafkaConsumer<byte[], byte[]> consumer(String group) {
        Map<String, Object> props = broker.clientProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static int partitionOf(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        return consumer.assignment().stream()
                .filter(tp -> tp.topic().equals(topic))
                .filter(tp -> consumer.position(tp) > 0)
                .findFirst()
                .orElseThrow()
                .partition();
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return CloudEvents.header(record.headers(), name);
    }
}
