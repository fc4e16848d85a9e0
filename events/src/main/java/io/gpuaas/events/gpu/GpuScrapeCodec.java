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
 * The wire codec of {@code gpuaas.gpu-samples}, the busiest topic (one record per exporter scrape: at 10,000 GPUs,
 * 100,000s of device readings per second into metrics-gateway's producer and idle-reclaimer's pipeline). It writes and
 * reads exactly what the generic CloudEvents serdes ({@code EventSerdes.of(GpuScrapeEvent.class)}) write and read,
 * the same headers and the same JSON bytes, without Jackson's reflection and {@code DateTimeFormatter}, which
 * dominated both services' profiles.
 *
 * <ul>
 *   <li>{@link Writer}: one per thread, reusing its buffer, for producers that send ready {@code byte[]} records;
 *       {@link #serde()}'s serializer writes the same bytes.</li>
 *   <li>{@link Reader}: parses the shape producers write, every value within the schema's bounds, and hands every
 *       other record (other types, missing headers, unusual, broken or out-of-range bodies, tombstones) to the
 *       generic reader with {@link SchemaValidation#FULL}, which returns the same record or throws the same
 *       {@link EventDecodingException}, so what the generic reader dead-letters, this one does too. Full validation
 *       on that path is affordable: it is taken by the rare record, not by the stream.</li>
 * </ul>
 *
 * <p>{@code Topics.GPU_SAMPLES} registers {@link #serde()}, so every producer and consumer of the topic uses this
 * codec; consumers add the tombstone rule with {@code EventSerdes.valueDeserializer(Topics.GPU_SAMPLES)}.
 */
public final class GpuScrapeCodec {

    private static final Header TYPE = CloudEventHeaders.type(GpuScrape.class);
    private static final byte[] TYPE_BYTES = TYPE.value();

    private final CloudEventHeaders headers;

    /** @param headers where each record's CloudEvents headers come from (its {@code ce_source}, clock and ids) */
    public GpuScrapeCodec(CloudEventHeaders headers) {
        this.headers = headers;
    }

    /** The topic's serde: this codec's serializer (the process's {@code ce_source}) and {@link Reader}. */
    public static Serde<GpuScrapeEvent> serde() {
        return Serdes.serdeFrom(new GpuScrapeCodec(CloudEventHeaders.process()).serializer(), new Reader());
    }

    /** A writer for one thread. */
    public Writer writer() {
        return new Writer(this);
    }

    /** The six CloudEvents headers of one new GpuScrape record (a fresh {@code ce_id}, the current time). */
    public List<Header> headers() {
        return Arrays.asList(headers.next(TYPE));
    }

    /** A Kafka serializer writing this codec's headers and bodies; thread-safe. */
    public Serializer<GpuScrapeEvent> serializer() {
        return new ScrapeSerializer(this);
    }

    /** Encodes scrapes into ready records on one thread, reusing its buffer. Not thread-safe. */
    public static final class Writer {

        private final GpuScrapeCodec codec;
        private final GpuScrapeJsonWriter json = new GpuScrapeJsonWriter();

        private Writer(GpuScrapeCodec codec) {
            this.codec = codec;
        }

        /** The JSON body of {@code scrape}, as {@code Json.mapper().writeValueAsBytes(scrape)} writes it. */
        public byte[] body(GpuScrape scrape) {
            return json.write(scrape);
        }

        /** The record of {@code scrape}: keyed by its node, JSON body, CloudEvents binary-mode headers. */
        public ProducerRecord<byte[], byte[]> record(String topic, GpuScrape scrape) {
            byte[] key = scrape.key().getBytes(StandardCharsets.UTF_8);
            return new ProducerRecord<>(topic, null, null, key, body(scrape), codec.headers());
        }
    }

    /**
     * Reads GpuScrape records: the fast shape directly, everything else through the generic reader (see the class
     * comment). Stateless and thread-safe. A tombstone reads as null here, as in the generic reader; the topic's
     * tombstone rule ({@code EventSerdes.valueDeserializer}) turns it into a dead letter.
     */
    public static final class Reader implements Deserializer<GpuScrapeEvent> {

        private final CloudEventDeserializer<GpuScrapeEvent> generic =
                new CloudEventDeserializer<>(GpuScrapeEvent.class, SchemaValidation.FULL);

        /** The generic reader this one hands unusual records to, and answers like. */
        public CloudEventDeserializer<GpuScrapeEvent> generic() {
            return generic;
        }

        @Override
        public GpuScrapeEvent deserialize(String topic, byte[] data) {
            return generic.deserialize(topic, data);
        }

        @Override
        public GpuScrapeEvent deserialize(String topic, Headers headers, byte[] data) {
            if (data != null && headers != null) {
                Header type = headers.lastHeader(TYPE.key());
                if (type != null && Arrays.equals(type.value(), TYPE_BYTES)) {
                    GpuScrape scrape = GpuScrapeJsonReader.read(data);
                    if (scrape != null) {
                        return scrape;
                    }
                }
            }
            return generic.deserialize(topic, headers, data);
        }
    }

    /** The {@link Serializer} form, for clients typed on {@link GpuScrapeEvent}: a fresh buffer per record. */
    private record ScrapeSerializer(GpuScrapeCodec codec) implements Serializer<GpuScrapeEvent> {

        @Override
        public byte[] serialize(String topic, GpuScrapeEvent data) {
            return data == null ? null : body(data);
        }

        @Override
        public byte[] serialize(String topic, Headers target, GpuScrapeEvent data) {
            if (data == null) {
                return null;
            }
            codec.headers.replace(target, TYPE);
            return body(data);
        }

        private static byte[] body(GpuScrapeEvent event) {
            return switch (event) {
                case GpuScrape scrape -> new GpuScrapeJsonWriter().write(scrape);
            };
        }
    }
}
