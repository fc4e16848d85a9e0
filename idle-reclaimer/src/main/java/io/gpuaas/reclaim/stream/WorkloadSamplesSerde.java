package io.gpuaas.reclaim.stream;

import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Binary;
import io.gpuaas.reclaim.model.WorkloadSamples;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary serde for the internal repartition topic (one workload's samples of one scrape, keyed by workload). Internal
 * to this service, so it carries no CloudEvents envelope: the public contract is the GpuScrape on
 * {@code gpuaas.gpu-samples}. Version 3 holds the workload once and then its samples, each with a flags byte (video
 * work, GPU_UTIL-only); version 2 (the same without flags) and version 1 (one sample per record, written before
 * scrapes were batched) are still read, as engine-activity samples without video work, so records in flight across
 * an upgrade are not lost. Version 4 is a keep answer (the workload, then the answer's fields), which is merged into
 * the same topic so it is decided in order with the workload's samples.
 */
public final class WorkloadSamplesSerde implements Serde<WorkloadSamples> {

    private static final byte SINGLE = 1;
    private static final byte BATCH = 2;
    private static final byte FLAGGED = 3;
    private static final byte KEEP = 4;
    private static final int MEDIA_BUSY = 1;
    private static final int GPU_UTIL_ONLY = 2;

    @Override
    public Serializer<WorkloadSamples> serializer() {
        return (topic, s) -> s == null ? null : write(s);
    }

    @Override
    public Deserializer<WorkloadSamples> deserializer() {
        return (topic, bytes) -> bytes == null ? null : read(bytes);
    }

    static byte[] write(WorkloadSamples batch) {
        if (batch.keep() != null) {
            return writeKeep(batch.keep());
        }
        WorkloadRef ref = batch.workload();
        int size =
                32 + ref.namespace().length() + ref.kind().length() + ref.name().length();
        for (AttributedSample s : batch.samples()) {
            size += 33 + s.device().length() + s.pod().length() + s.group().length();
        }
        Binary.Writer out = new Binary.Writer(size);
        out.writeByte(FLAGGED);
        out.writeUTF(ref.namespace());
        out.writeUTF(ref.kind());
        out.writeUTF(ref.name());
        out.writeInt(batch.samples().size());
        for (AttributedSample s : batch.samples()) {
            out.writeUTF(s.device());
            out.writeUTF(s.pod());
            out.writeUTF(s.group());
            out.writeLong(s.timeMillis());
            out.writeDouble(s.utilization() == null ? Double.NaN : s.utilization());
            out.writeLong(s.podStartMillis());
            out.writeByte((s.mediaBusy() ? MEDIA_BUSY : 0) | (s.gpuUtilOnly() ? GPU_UTIL_ONLY : 0));
        }
        return out.toByteArray();
    }

    private static byte[] writeKeep(KeepRequested keep) {
        WorkloadRef ref = keep.workload();
        Binary.Writer out = new Binary.Writer(64
                + ref.key().length()
                + keep.requestId().length()
                + (keep.tenant() == null ? 0 : keep.tenant().length())
                + keep.requestedBy().length());
        out.writeByte(KEEP);
        out.writeUTF(ref.namespace());
        out.writeUTF(ref.kind());
        out.writeUTF(ref.name());
        out.writeBoolean(keep.tenant() != null);
        if (keep.tenant() != null) {
            out.writeUTF(keep.tenant());
        }
        out.writeUTF(keep.requestId());
        out.writeInt(keep.hours());
        out.writeUTF(keep.requestedBy());
        out.writeLong(keep.time().toEpochMilli());
        return out.toByteArray();
    }

    private static WorkloadSamples readKeep(Binary.Reader in) {
        WorkloadRef ref = new WorkloadRef(in.readUTF(), in.readUTF(), in.readUTF());
        String tenant = in.readBoolean() ? in.readUTF() : null;
        String requestId = in.readUTF();
        int hours = in.readInt();
        String by = in.readUTF();
        Instant time = Instant.ofEpochMilli(in.readLong());
        return WorkloadSamples.keep(new KeepRequested(ref, tenant, requestId, hours, by, time));
    }

    static WorkloadSamples read(byte[] data) {
        Binary.Reader in = new Binary.Reader(data);
        byte version = in.readByte();
        if (version == KEEP) {
            return readKeep(in);
        }
        if (version != SINGLE && version != BATCH && version != FLAGGED) {
            throw new IllegalArgumentException("unknown workload samples version " + version);
        }
        WorkloadRef ref = new WorkloadRef(in.readUTF(), in.readUTF(), in.readUTF());
        int count = version == SINGLE ? 1 : in.readInt();
        if (count < 1 || count > data.length) {
            throw new IllegalArgumentException("bad sample count " + count);
        }
        List<AttributedSample> samples = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String device = in.readUTF();
            String pod = in.readUTF();
            String group = in.readUTF();
            long time = in.readLong();
            double utilization = in.readDouble();
            long podStart = in.readLong();
            int flags = version == FLAGGED ? in.readByte() : 0;
            samples.add(new AttributedSample(
                    ref,
                    device,
                    pod,
                    group,
                    time,
                    Double.isNaN(utilization) ? null : utilization,
                    podStart,
                    (flags & MEDIA_BUSY) != 0,
                    (flags & GPU_UTIL_ONLY) != 0));
        }
        return new WorkloadSamples(ref, samples);
    }
}
