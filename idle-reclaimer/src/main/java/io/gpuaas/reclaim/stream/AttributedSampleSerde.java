package io.gpuaas.reclaim.stream;

import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Binary;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary serde for the internal repartition topic (samples keyed by workload). Internal to this service, so it
 * carries no CloudEvents envelope: the public contract is the GpuScrape on {@code gpuaas.gpu-samples}.
 */
public final class AttributedSampleSerde implements Serde<AttributedSample> {

    private static final byte VERSION = 1;

    @Override
    public Serializer<AttributedSample> serializer() {
        return (topic, s) -> s == null ? null : write(s);
    }

    @Override
    public Deserializer<AttributedSample> deserializer() {
        return (topic, bytes) -> bytes == null ? null : read(bytes);
    }

    static byte[] write(AttributedSample s) {
        Binary.Writer out = new Binary.Writer(64
                + s.workload().namespace().length()
                + s.workload().kind().length()
                + s.workload().name().length()
                + s.device().length()
                + s.pod().length()
                + s.group().length());
        out.writeByte(VERSION);
        out.writeUTF(s.workload().namespace());
        out.writeUTF(s.workload().kind());
        out.writeUTF(s.workload().name());
        out.writeUTF(s.device());
        out.writeUTF(s.pod());
        out.writeUTF(s.group());
        out.writeLong(s.timeMillis());
        out.writeDouble(s.utilization() == null ? Double.NaN : s.utilization());
        out.writeLong(s.podStartMillis());
        return out.toByteArray();
    }

    static AttributedSample read(byte[] data) {
        Binary.Reader in = new Binary.Reader(data);
        if (in.readByte() != VERSION) {
            throw new IllegalArgumentException("unknown attributed sample version");
        }
        WorkloadRef ref = new WorkloadRef(in.readUTF(), in.readUTF(), in.readUTF());
        String device = in.readUTF();
        String pod = in.readUTF();
        String group = in.readUTF();
        long time = in.readLong();
        double utilization = in.readDouble();
        long podStart = in.readLong();
        return new AttributedSample(
                ref, device, pod, group, time, Double.isNaN(utilization) ? null : utilization, podStart);
    }
}
