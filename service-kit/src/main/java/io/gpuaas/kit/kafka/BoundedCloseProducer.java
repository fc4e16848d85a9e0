package io.gpuaas.kit.kafka;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A producer whose plain {@link #close()} waits at most {@link #GRACE} for records in flight. micronaut-kafka closes
 * its producers with {@code close()} when the context stops, which waits without bound (up to
 * {@code delivery.timeout.ms}, two minutes, with the broker gone): longer than a pod's termination grace.
 */
final class BoundedCloseProducer<K, V> extends KafkaProducer<K, V> {

    static final Duration GRACE = Duration.ofSeconds(5);

    BoundedCloseProducer(Map<String, Object> config, Serializer<K> keys, Serializer<V> values) {
        super(config, keys, values);
    }

    @Override
    public void close() {
        close(GRACE);
    }
}
