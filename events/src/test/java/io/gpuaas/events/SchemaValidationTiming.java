package io.gpuaas.events;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Hand-run timing of GpuScrape decoding per schema mode and with the samples topic's codec, and of encoding with the
 * generic serializer and with the codec (not a test; see events/README.md). The record is a scrape of an eight-GPU
 * node; prints ns per record and per device over several rounds.
 */
public final class SchemaValidationTiming {

    private static final int DEVICES = 8;

    private SchemaValidationTiming() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        RecordHeaders headers = new RecordHeaders();
        GpuScrape scrape = eightGpus();
        byte[] body = new CloudEventSerializer<>().serialize("t", headers, scrape);
        System.out.println("body bytes: " + body.length + " for " + DEVICES + " devices");
        GpuScrapeCodec codec = new GpuScrapeCodec(CloudEventHeaders.process());
        Serializer<GpuScrapeEvent> generic =
                EventSerdes.of(GpuScrapeEvent.class).serializer();
        Serializer<GpuScrapeEvent> codecSerializer = codec.serializer();
        for (int round = 0; round < 5; round++) {
            StringBuilder line = new StringBuilder("round " + round + ": decode");
            for (SchemaValidation mode : SchemaValidation.values()) {
                Deserializer<GpuScrapeEvent> d = new CloudEventDeserializer<>(GpuScrapeEvent.class, mode);
                line.append(time(
                        mode.name(), n, i -> d.deserialize("t", headers, body).hashCode()));
            }
            Deserializer<GpuScrapeEvent> reader = new GpuScrapeCodec.Reader();
            line.append(
                    time("codec", n, i -> reader.deserialize("t", headers, body).hashCode()));
            line.append("; encode");
            line.append(time("generic", n, i -> generic.serialize("t", new RecordHeaders(), scrape).length));
            line.append(time("codec", n, i -> codecSerializer.serialize("t", new RecordHeaders(), scrape).length));
            GpuScrapeCodec.Writer writer = codec.writer();
            line.append(time("codec-writer", n, i -> writer.record("t", scrape).value().length));
            System.out.println(line);
        }
    }

    private static GpuScrape eightGpus() {
        GpuScrape template = EventSamples.gpuScrape();
        List<GpuScrape.Device> devices = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            GpuScrape.Device d = template.devices().getFirst();
            devices.add(new GpuScrape.Device(
                    d.uuid() + i,
                    i,
                    d.modelName(),
                    null,
                    null,
                    d.hostnameLabel(),
                    d.namespace(),
                    d.pod() + i,
                    d.container(),
                    d.utilization(),
                    d.utilizationSource(),
                    d.memoryUsedMiB(),
                    d.memoryFreeMiB(),
                    d.powerWatts()));
        }
        return new GpuScrape(template.time(), template.node(), template.target(), devices);
    }

    private static String time(String label, int n, ToIntFunction<Integer> work) {
        long start = System.nanoTime();
        long sink = 0;
        for (int i = 0; i < n; i++) {
            sink += work.applyAsInt(i);
        }
        long nsPerRecord = (System.nanoTime() - start) / n;
        return String.format(" %s=%d ns (%d /device)", label, nsPerRecord, nsPerRecord / DEVICES)
                + (sink == 42 ? "!" : "");
    }
}
