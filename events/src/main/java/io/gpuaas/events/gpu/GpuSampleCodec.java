package io.gpuaas.events.gpu;

import io.gpuaas.events.CloudEventDeserializer;
import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.EventDecodingException;
import io.gpuaas.events.SchemaValidation;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The wire codec of {@code gpuaas.gpu-samples}, the busiest topic (one record per GPU device per scrape: 10,000s of
 * records per second into metrics-gateway's producer and idle-reclaimer's pipeline). It writes and reads exactly
 * what the generic CloudEvents serdes ({@code EventSerdes.of(GpuSampleEvent.class)}) write and read, the same
 * headers and the same JSON bytes, without Jackson's reflection and {@code DateTimeFormatter}, which dominated both
 * services' profiles.
 *
 * <ul>
 *   <li>{@link Writer}: one per thread and batch (a scrape), reusing its buffer and the batch's formatted time, for
 *       producers that send ready {@code byte[]} records; {@link #serde()}'s serializer writes the same bytes.</li>
 *   <li>{@link Reader}: parses the shape producers write, every value within the schema's bounds, and hands every
 *       other record (other types, missing headers, unusual, broken or out-of-range bodies, tombstones) to the
 *       generic reader with {@link SchemaValidation#REQUIRED_FIELDS}, which returns the same record or throws the
 *       same {@link EventDecodingException}, so what the generic reader dead-letters, this one does too.</li>
 * </ul>
 *
 * <p>{@code Topics.GPU_SAMPLES} registers {@link #serde()}, so every producer and consumer of the topic uses this
 * codec; consumers add the tombstone rule with {@code EventSerdes.valueDeserializer(Topics.GPU_SAMPLES)}.
 */
public final class GpuSampleCodec {

    private static final Header TYPE = CloudEventHeaders.type(GpuSample.class);
    private static final byte[] TYPE_BYTES = TYPE.value();

    private final CloudEventHeaders headers;

    /** @param headers where each record's CloudEvents headers come from (its {@code ce_source}, clock and ids) */
    public GpuSampleCodec(CloudEventHeaders headers) {
        this.headers = headers;
    }

    /** The topic's serde: this codec's serializer (the process's {@code ce_source}) and {@link Reader}. */
    public static Serde<GpuSampleEvent> serde() {
        return Serdes.serdeFrom(new GpuSampleCodec(CloudEventHeaders.process()).serializer(), new Reader());
    }

    /** A writer for one thread's batch of samples, e.g. one scrape's. */
    public Writer writer() {
        return new Writer(this);
    }

    /** The six CloudEvents headers of one new GpuSample record (a fresh {@code ce_id}, the current time). */
    public List<Header> headers() {
        return Arrays.asList(headers.next(TYPE));
    }

    /** A Kafka serializer writing this codec's headers and bodies; thread-safe. */
    public Serializer<GpuSampleEvent> serializer() {
        return new SampleSerializer(this);
    }

    /**
     * Encodes samples into ready records, on one thread: its buffer is reused, and the instant of the last sample is
     * kept formatted, so a scrape's samples, which share their time, format it once. Not thread-safe.
     */
    public static final class Writer {

        private final GpuSampleCodec codec;
        private final GpuSampleJsonWriter json = new GpuSampleJsonWriter();

        private Writer(GpuSampleCodec codec) {
            this.codec = codec;
        }

        /** The JSON body of {@code sample}, as {@code Json.mapper().writeValueAsBytes(sample)} writes it. */
        public byte[] body(GpuSample sample) {
            return json.write(sample);
        }

        /** The record of {@code sample}: keyed by its device, JSON body, CloudEvents binary-mode headers. */
        public ProducerRecord<byte[], byte[]> record(String topic, GpuSample sample) {
            byte[] key = sample.deviceKey().getBytes(StandardCharsets.UTF_8);
            return new ProducerRecord<>(topic, null, null, key, body(sample), codec.headers());
        }
    }

    /**
     * Reads GpuSample records: the fast shape directly, everything else through the generic reader (see the class
     * comment). Stateless and thread-safe. A tombstone reads as null here, as in the generic reader; the topic's
     * tombstone rule ({@code EventSerdes.valueDeserializer}) turns it into a dead letter.
     */
    public static final class Reader implements Deserializer<GpuSampleEvent> {

        private final CloudEventDeserializer<GpuSampleEvent> generic =
                new CloudEventDeserializer<>(GpuSampleEvent.class, SchemaValidation.REQUIRED_FIELDS);

        /** The generic reader this one hands unusual records to, and answers like. */
        public CloudEventDeserializer<GpuSampleEvent> generic() {
            return generic;
        }

        @Override
        public GpuSampleEvent deserialize(String topic, byte[] data) {
            return generic.deserialize(topic, data);
        }

        @Override
        public GpuSampleEvent deserialize(String topic, Headers headers, byte[] data) {
            if (data != null && headers != null) {
                Header type = headers.lastHeader(TYPE.key());
                if (type != null && Arrays.equals(type.value(), TYPE_BYTES)) {
                    GpuSample sample = GpuSampleJsonReader.read(data);
                    if (sample != null) {
                        return sample;
                    }
                }
            }
            return generic.deserialize(topic, headers, data);
        }
    }

    /** The {@link Serializer} form, for clients typed on {@link GpuSampleEvent}: a fresh buffer per record. */
    private record SampleSerializer(GpuSampleCodec codec) implements Serializer<GpuSampleEvent> {

        @Override
        public byte[] serialize(String topic, GpuSampleEvent data) {
            return data == null ? null : body(data);
        }

        @Override
        public byte[] serialize(String topic, Headers target, GpuSampleEvent data) {
            if (data == null) {
                return null;
            }
            codec.headers.replace(target, TYPE);
            return body(data);
        }

        private static byte[] body(GpuSampleEvent event) {
            return switch (event) {
                case GpuSample sample -> new GpuSampleJsonWriter().write(sample);
            };
        }
    }
}
