package io.gpuaas.events;

import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleCodec;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Hand-run timing of GpuSample decoding per schema mode and with the samples topic's codec, and of encoding with the
 * generic serializer and with the codec (not a test; see events/README.md). Prints ns per record over several rounds.
 */
public final class SchemaValidationTiming {

    private SchemaValidationTiming() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        RecordHeaders headers = new RecordHeaders();
        GpuSample sample = EventSamples.gpuSample();
        byte[] body = new CloudEventSerializer<>().serialize("t", headers, sample);
        System.out.println("body bytes: " + body.length);
        GpuSampleCodec codec = new GpuSampleCodec(CloudEventHeaders.process());
        Serializer<GpuSampleEvent> generic =
                EventSerdes.of(GpuSampleEvent.class).serializer();
        Serializer<GpuSampleEvent> codecSerializer = codec.serializer();
        for (int round = 0; round < 5; round++) {
            StringBuilder line = new StringBuilder("round " + round + ": decode");
            for (SchemaValidation mode : SchemaValidation.values()) {
                Deserializer<GpuSampleEvent> d = new CloudEventDeserializer<>(GpuSampleEvent.class, mode);
                line.append(time(
                        mode.name(), n, i -> d.deserialize("t", headers, body).hashCode()));
            }
            Deserializer<GpuSampleEvent> reader = new GpuSampleCodec.Reader();
            line.append(
                    time("codec", n, i -> reader.deserialize("t", headers, body).hashCode()));
            line.append("; encode");
            line.append(time("generic", n, i -> generic.serialize("t", new RecordHeaders(), sample).length));
            line.append(time("codec", n, i -> codecSerializer.serialize("t", new RecordHeaders(), sample).length));
            GpuSampleCodec.Writer writer = codec.writer();
            line.append(time("codec-writer", n, i -> writer.record("t", sample).value().length));
            System.out.println(line);
        }
    }

    private static String time(String label, int n, ToIntFunction<Integer> work) {
        long start = System.nanoTime();
        long sink = 0;
        for (int i = 0; i < n; i++) {
            sink += work.applyAsInt(i);
        }
        long nsPerRecord = (System.nanoTime() - start) / n;
        return String.format(" %s=%d ns", label, nsPerRecord) + (sink == 42 ? "!" : "");
    }
}
