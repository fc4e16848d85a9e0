package io.gpuaas.events;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;

/**
 * One topic of the gpuaas contract: its name (without the configurable prefix), serdes, and creation settings.
 *
 * @param baseName   name without prefix, e.g. {@code booking-commands}
 * @param keyType    type of the key ({@code String}: an aggregate id; original bytes on the dead-letter topic)
 * @param keySerde   serde of the key (always a string aggregate id in gpuaas)
 * @param valueType  type of the value, the sealed event interface or record its serde reads and writes; a producer
 *                   asks for its serializers by these types (service-kit's {@code kafka.TopicSerdes})
 * @param valueSerde serde of the value
 * @param partitions partitions to create
 * @param compacted  {@code cleanup.policy=compact} when true, {@code delete} otherwise
 * @param retention  {@code retention.ms} for delete topics; null keeps the broker default (compacted topics)
 * @param <K>        key type
 * @param <V>        value type
 */
public record TopicSpec<K, V>(
        String baseName,
        Class<K> keyType,
        Serde<K> keySerde,
        Class<V> valueType,
        Serde<V> valueSerde,
        int partitions,
        boolean compacted,
        Duration retention) {

    /** The full topic name with {@code prefix} (e.g. {@code gpuaas.}) in front. */
    public String name(String prefix) {
        return prefix + baseName;
    }

    /** Topic-level configs to create the topic with. */
    public Map<String, String> configs() {
        if (compacted) {
            return Map.of("cleanup.policy", "compact", "min.compaction.lag.ms", "0");
        }
        return Map.of("cleanup.policy", "delete", "retention.ms", Long.toString(retention.toMillis()));
    }
}
