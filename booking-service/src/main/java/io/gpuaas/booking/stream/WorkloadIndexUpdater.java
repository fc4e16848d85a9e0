package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventDecodingException;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.Topics;
import io.gpuaas.events.workload.WorkloadEvent;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Feeds the global store {@code workload-presence} from {@code gpuaas.kueue-workloads}, on Kafka Streams' global
 * thread. The source hands over raw bytes and this processor decodes them, headers included: Streams re-runs a global
 * store's processor over the topic when it restores the store (Kafka 3.8+), but passes no headers to the source's
 * deserializers then, and a gpuaas event cannot be read without its {@code ce_type}. A record that cannot be read is
 * dead-lettered and skipped; when even that fails the global thread stops and the engine starts a new client.
 *
 * <p>A {@code FeedWatermark} counts for the partition it was read from, and only when it names that partition: it
 * proves that partition complete up to its time, nothing about another. One that names another partition (a writer
 * that is not quota-projector, a bug) is dead-lettered and moves no watermark: taken at its word it would make a
 * partition whose feed stopped look fresh, and taken for where it landed it would vouch for records its writer never
 * meant to. Deferring a no-show release is the safe side of the feed guard.
 */
final class WorkloadIndexUpdater implements Processor<byte[], byte[], Void, Void> {

    private final WorkloadCells cells;
    private final DeadLetterPublisher deadLetters;
    private final Deserializer<WorkloadEvent> decoder = EventSerdes.valueDeserializer(Topics.KUEUE_WORKLOADS);
    private ProcessorContext<Void, Void> context;
    private WorkloadIndex index;

    WorkloadIndexUpdater(WorkloadCells cells, DeadLetterPublisher deadLetters) {
        this.cells = cells;
        this.deadLetters = deadLetters;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        KeyValueStore<String, byte[]> store = context.getStateStore(LifecycleTopology.PRESENCE_STORE);
        this.index = new WorkloadIndex(store);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata where = context.recordMetadata().orElseThrow();
        WorkloadEvent event;
        try {
            event = decoder.deserialize(where.topic(), record.headers(), record.value());
        } catch (EventDecodingException e) {
            deadLetters.publish(raw(record, where), e);
            return;
        }
        if (event instanceof WorkloadEvent.FeedWatermark mark) {
            if (mark.partition() == where.partition()) {
                index.watermark(where.partition(), mark.time());
            } else {
                deadLetters.publish(raw(record, where), new MisaddressedWatermarkException(mark, where.partition()));
            }
            return;
        }
        index.apply(WorkloadEvent.key(event.namespace(), event.name()), cells.of(event), event.time());
    }

    private static ConsumerRecord<byte[], byte[]> raw(Record<byte[], byte[]> record, RecordMetadata where) {
        byte[] key = record.key();
        byte[] value = record.value();
        return new ConsumerRecord<>(
                where.topic(),
                where.partition(),
                where.offset(),
                record.timestamp(),
                TimestampType.CREATE_TIME,
                key == null ? -1 : key.length,
                value == null ? -1 : value.length,
                key,
                value,
                record.headers(),
                Optional.empty());
    }
}
