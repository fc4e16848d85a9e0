package io.gpuaas.metrics.kafka;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The dead-letter topic's producer while the broker does not take writes: the first {@link #failures} sends fail. */
final class FlakyProducer extends MockProducer<byte[], byte[]> {

    final AtomicInteger failures = new AtomicInteger();

    FlakyProducer() {
        super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        if (failures.getAndDecrement() > 0) {
            return CompletableFuture.failedFuture(new TimeoutException("dead-letter topic unavailable (test)"));
        }
        return super.send(record);
    }
}
