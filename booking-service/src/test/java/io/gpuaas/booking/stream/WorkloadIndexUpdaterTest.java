package io.gpuaas.booking.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The feed watermarks the global store keeps, read by the no-show guard: each counts for the partition it was read
 * from, and one that names another partition is dead-lettered instead of vouching for either.
 */
class WorkloadIndexUpdaterTest {

    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    private static final PoolCatalog POOLS = new PoolCatalog(
            List.of(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, Duration.ofMinutes(15))));

    private final MockProducer<byte[], byte[]> deadLetterProducer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
    private WorkloadIndexUpdater updater;
    private WorkloadIndex index;

    @BeforeEach
    void start() {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(LifecycleTopology.PRESENCE_STORE),
                        Serdes.String(),
                        Serdes.ByteArray())
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(
                deadLetterProducer, "gpuaas.dead-letter", "booking-service", new PrometheusRegistry());
        updater = new WorkloadIndexUpdater(new WorkloadCells(POOLS), deadLetters);
        updater.init(context);
        index = new WorkloadIndex(store);
    }

    private void read(int partition, FeedWatermark mark) {
        context.setRecordMetadata("gpuaas.kueue-workloads", partition, 0);
        RecordHeaders headers = new RecordHeaders();
        byte[] body = Topics.KUEUE_WORKLOADS.valueSerde().serializer().serialize("t", headers, mark);
        byte[] key = WorkloadEvent.key(mark.namespace(), mark.name()).getBytes(StandardCharsets.UTF_8);
        updater.process(new Record<>(key, body, mark.time().toEpochMilli(), headers));
    }

    @Test
    void shouldTakeTheOldestPartitionsWatermarkWhenEachNamesItsOwnPartition() {
        read(0, new FeedWatermark(0, "quota-projector-0", NOW));
        read(1, new FeedWatermark(1, "quota-projector-0", NOW.minusSeconds(90)));

        assertThat(index.feedWatermark()).contains(NOW.minusSeconds(90));
        assertThat(deadLetterProducer.history()).isEmpty();
    }

    @Test
    void shouldKeepAStalePartitionStaleWhenAWatermarkReadElsewhereNamesIt() {
        read(0, new FeedWatermark(0, "quota-projector-0", NOW));
        read(1, new FeedWatermark(1, "quota-projector-0", NOW.minusSeconds(600)));

        read(0, new FeedWatermark(1, "stray-writer", NOW));

        assertThat(index.feedWatermark()).as("partition 1 not made fresh").contains(NOW.minusSeconds(600));
        assertThat(deadLetterProducer.history()).singleElement().satisfies(letter -> {
            assertThat(header(letter, DeadLetterPublisher.REASON)).isEqualTo("MisaddressedWatermarkException");
            assertThat(header(letter, DeadLetterPublisher.PARTITION)).isEqualTo("0");
        });
    }

    @Test
    void shouldNotMakeTheFeedLookCompleteWhenTheOnlyWatermarkIsMisaddressed() {
        read(0, new FeedWatermark(2, "stray-writer", NOW));

        assertThat(index.feedWatermark()).isEmpty();
        assertThat(deadLetterProducer.history()).hasSize(1);
    }

    private static String header(org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> letter, String name) {
        return new String(letter.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
