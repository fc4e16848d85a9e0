package io.gpuaas.reclaim.stream;

import io.gpuaas.reclaim.model.WorkloadWindows;
import io.gpuaas.reclaim.model.WorkloadWindowsCodec;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** State store serde of the per-workload windows. */
public final class WorkloadWindowsSerde implements Serde<WorkloadWindows> {

    @Override
    public Serializer<WorkloadWindows> serializer() {
        return (topic, state) -> state == null ? null : WorkloadWindowsCodec.encode(state);
    }

    @Override
    public Deserializer<WorkloadWindows> deserializer() {
        return (topic, bytes) -> bytes == null ? null : WorkloadWindowsCodec.decode(bytes);
    }
}
