package io.gpuaas.events;

import io.gpuaas.events.gpu.GpuSampleEvent;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Hand-run timing of the deserializer per schema mode on a GpuSample (not a test; see events/README.md).
 * Prints ns per record for each mode over several rounds.
 */
public final class SchemaValidationTiming {

    private SchemaValidationTiming() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        RecordHeaders headers = new RecordHeaders();
        Serializer<Object> serializer = new CloudEventSerializer<>();
        byte[] body = serializer.serialize("t", headers, EventSamples.gpuSample());
        System.out.println("body bytes: " + body.length);
        for (int round = 0; round < 5; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (SchemaValidation mode : SchemaValidation.values()) {
                CloudEventDeserializer<GpuSampleEvent> d = new CloudEventDeserializer<>(GpuSampleEvent.class, mode);
                long start = System.nanoTime();
                long sink = 0;
                for (int i = 0; i < n; i++) {
                    sink += d.deserialize("t", headers, body).hashCode();
                }
                long nsPerRecord = (System.nanoTime() - start) / n;
                line.append(String.format(" %s=%d ns", mode, nsPerRecord)).append(sink == 42 ? "!" : "");
            }
            System.out.println(line);
        }
    }
}
