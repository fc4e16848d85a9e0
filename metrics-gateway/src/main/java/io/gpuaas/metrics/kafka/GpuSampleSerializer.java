package io.gpuaas.metrics.kafka;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes GpuSamples exactly as the events module's CloudEvents serializer does (same {@code ce_*} headers and
 * {@code content-type}, same JSON as {@code Json.mapper()}: component order, ISO instants, nulls omitted — a test
 * compares the bytes and reads them back with the contract's deserializer), without Jackson's reflection and with
 * headers that cost next to nothing to build: at 10,000s of samples per second the contract's serializer, a
 * DateTimeFormatter per {@code ce_time} and a String per {@code ce_id} dominated parse-and-publish.
 *
 * <p>{@link #record} builds a ready {@code byte[]} record for {@link GpuSamplePublisher}; the {@link Serializer}
 * form is for clients typed on {@link GpuSampleEvent}. Any other event type keeps using the contract's serializer.
 */
public final class GpuSampleSerializer implements Serializer<GpuSampleEvent> {

    private final CloudEventHeaders headers;

    /** @param source the {@code ce_source} of this process, e.g. {@code /gpuaas/metrics-gateway} */
    public GpuSampleSerializer(String source) {
        this.headers = new CloudEventHeaders(source);
    }

    /** A writer for one scrape's samples on one thread (it reuses its buffer and the scrape's formatted time). */
    public static Writer writer() {
        return new Writer();
    }

    /** The record of {@code sample}: keyed by its device, JSON body, CloudEvents binary-mode headers. */
    public ProducerRecord<byte[], byte[]> record(String topic, GpuSample sample, Writer writer) {
        byte[] key = sample.deviceKey().getBytes(StandardCharsets.UTF_8);
        return new ProducerRecord<>(topic, null, null, key, writer.json.write(sample), headers());
    }

    /** The CloudEvents headers of one new record (fresh {@code ce_id}, current {@code ce_time}). */
    public List<Header> headers() {
        return Arrays.asList(headers.next());
    }

    @Override
    public byte[] serialize(String topic, GpuSampleEvent data) {
        return data == null ? null : json((GpuSample) data);
    }

    @Override
    public byte[] serialize(String topic, Headers target, GpuSampleEvent data) {
        if (data == null) {
            return null;
        }
        // Replace what the record already carried, as the contract's serializer does.
        for (Header header : headers.next()) {
            target.remove(header.key());
            target.add(header);
        }
        return json((GpuSample) data);
    }

    /** The JSON body alone, as {@code Json.mapper().writeValueAsBytes(sample)} would write it. */
    public static byte[] jsonOf(GpuSample sample) {
        return json(sample);
    }

    static byte[] json(GpuSample sample) {
        return new GpuSampleJson().write(sample);
    }

    /** Scratch state for encoding the samples of one scrape; confined to one thread. */
    public static final class Writer {
        private final GpuSampleJson json = new GpuSampleJson();

        private Writer() {
        }
    }
}
