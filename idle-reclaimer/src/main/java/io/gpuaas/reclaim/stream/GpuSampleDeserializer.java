package io.gpuaas.reclaim.stream;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventSerdes;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Reads {@code gpuaas.gpu-samples} with the same results as the contract's deserializer
 * ({@code EventSerdes.valueDeserializer(Topics.GPU_SAMPLES)}), faster: a record whose {@code ce_type} is the
 * GpuSample type and whose body has the shape producers write, every value within the schema's bounds, is parsed by
 * {@link GpuSampleJson}; every other record — other types, missing headers, unusual, broken or out-of-range bodies,
 * tombstones — goes to the contract's deserializer, which returns the same record or throws the same
 * {@code EventDecodingException} ({@code SCHEMA_VIOLATION}, {@code TOMBSTONE}, ...) and so dead-letters it. Jackson's
 * generic decoding, the Instant parse above all, was a fifth of the stream thread's time.
 */
public final class GpuSampleDeserializer implements Deserializer<GpuSampleEvent> {

    private static final byte[] TYPE = EventTypes.typeOf(GpuSample.class).getBytes(StandardCharsets.UTF_8);

    private final Deserializer<GpuSampleEvent> contract = EventSerdes.valueDeserializer(Topics.GPU_SAMPLES);

    /** The serde of the samples topic with this deserializer and the contract's serializer. */
    public static Serde<GpuSampleEvent> serde() {
        return Serdes.serdeFrom(Topics.GPU_SAMPLES.valueSerde().serializer(), new GpuSampleDeserializer());
    }

    @Override
    public GpuSampleEvent deserialize(String topic, byte[] data) {
        return contract.deserialize(topic, data);
    }

    @Override
    public GpuSampleEvent deserialize(String topic, Headers headers, byte[] data) {
        if (data != null && headers != null) {
            Header type = headers.lastHeader(CloudEvents.TYPE);
            if (type != null && Arrays.equals(type.value(), TYPE)) {
                GpuSample sample = GpuSampleJson.read(data);
                if (sample != null) {
                    return sample;
                }
            }
        }
        return contract.deserialize(topic, headers, data);
    }

    @Override
    public void close() {
        contract.close();
    }
}
