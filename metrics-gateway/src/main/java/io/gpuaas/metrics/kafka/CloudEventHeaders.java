package io.gpuaas.metrics.kafka;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.gpu.GpuSample;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The CloudEvents binary-mode headers of a GpuSample record, the same attributes the events module's serializer
 * writes, made cheap for a stream of 10,000s of records per second: the four attributes that never change are
 * shared {@link Header} instances (Kafka never mutates a header), {@code ce_id} is a version-4 UUID written
 * straight into its 36 bytes, and {@code ce_time} is formatted once per millisecond rather than per record.
 */
final class CloudEventHeaders {

    private static final Header SPEC_VERSION = constant(CloudEvents.SPECVERSION, "1.0");
    private static final Header TYPE = constant(CloudEvents.TYPE, EventTypes.typeOf(GpuSample.class));
    private static final Header CONTENT_TYPE = constant(CloudEvents.CONTENT_TYPE, CloudEvents.JSON);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final Header source;
    private volatile Stamp stamp = new Stamp(Long.MIN_VALUE, null);

    /** @param source the {@code ce_source} of this process, e.g. {@code /gpuaas/metrics-gateway} */
    CloudEventHeaders(String source) {
        this.source = constant(CloudEvents.SOURCE, source);
    }

    /** The six headers of one record, in the order the events serializer writes them. */
    Header[] next() {
        return new Header[] {SPEC_VERSION, new RecordHeader(CloudEvents.ID, newId()), source, TYPE,
            new RecordHeader(CloudEvents.TIME, now()), CONTENT_TYPE};
    }

    /** A random (version 4) UUID as 36 lower-case ASCII bytes, like {@link CloudEvents#newId()} without the String. */
    static byte[] newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        byte[] id = new byte[36];
        hex(high >>> 32, id, 0, 8);
        id[8] = '-';
        hex(high >>> 16, id, 9, 4);
        id[13] = '-';
        hex(high, id, 14, 4);
        id[18] = '-';
        hex(low >>> 48, id, 19, 4);
        id[23] = '-';
        hex(low, id, 24, 12);
        return id;
    }

    private static void hex(long value, byte[] into, int at, int digits) {
        for (int i = at + digits - 1; i >= at; i--) {
            into[i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    /**
     * The current time, ISO-8601 UTC, to the millisecond. Records serialized in the same millisecond share the
     * array (header values are never written to).
     */
    byte[] now() {
        long millis = System.currentTimeMillis();
        Stamp current = stamp;
        if (current.millis != millis) {
            current = new Stamp(millis, Instant.ofEpochMilli(millis).toString().getBytes(StandardCharsets.US_ASCII));
            stamp = current;
        }
        return current.text;
    }

    private static Header constant(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private record Stamp(long millis, byte[] text) {
    }
}
