package io.gpuaas.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The CloudEvents binary-mode headers of one record, built the one way every gpuaas producer writes them:
 * {@code ce_specversion}, {@code ce_id}, {@code ce_source}, {@code ce_type}, {@code ce_time}, {@code content-type},
 * in that order. They cost next to nothing per record, because the busiest topic carries tens of thousands of
 * records per second: the attributes that never change are shared {@link Header} instances (Kafka never writes to
 * a header), {@code ce_id} is a version-4 UUID written straight into its 36 bytes, and {@code ce_time} (ISO-8601
 * UTC, to the millisecond) is formatted once per millisecond and shared by the records of that millisecond.
 * Thread-safe.
 */
public final class CloudEventHeaders {

    private static final Header SPEC_VERSION = header(CloudEvents.SPECVERSION, "1.0");
    private static final Header CONTENT_TYPE = header(CloudEvents.CONTENT_TYPE, CloudEvents.JSON);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final ClassValue<Header> TYPES = new ClassValue<>() {
        @Override
        protected Header computeValue(Class<?> recordClass) {
            return header(CloudEvents.TYPE, EventTypes.typeOf(recordClass));
        }
    };
    private static final CloudEventHeaders PROCESS =
            new CloudEventHeaders(null, InstantSource.system(), ThreadLocalRandom::current);

    /** The fixed {@code ce_source}, or null for the process's ({@link CloudEvents#setProcessSource}). */
    private final Header source;

    private final InstantSource clock;
    private final Supplier<? extends RandomGenerator> random;
    private volatile Stamp stamp = new Stamp(Long.MIN_VALUE, null);

    /**
     * Headers with a fixed {@code ce_source}, times from {@code clock} and ids drawn from {@code random}.
     *
     * @param source the {@code ce_source}, e.g. {@code /gpuaas/metrics-gateway}; null for the process's
     * @param clock  where {@code ce_time} comes from
     * @param random the generator of the calling thread ({@code ThreadLocalRandom::current} outside tests)
     */
    public CloudEventHeaders(String source, InstantSource clock, Supplier<? extends RandomGenerator> random) {
        this.source = source == null ? null : header(CloudEvents.SOURCE, source);
        this.clock = clock;
        this.random = random;
    }

    /** Headers with the process's {@code ce_source}, the system clock and random ids: what serializers write. */
    public static CloudEventHeaders process() {
        return PROCESS;
    }

    /** Headers with a fixed {@code ce_source}, the system clock and random ids. */
    public static CloudEventHeaders of(String source) {
        return new CloudEventHeaders(source, InstantSource.system(), ThreadLocalRandom::current);
    }

    /** The shared {@code ce_type} header of a registered record class. */
    public static Header type(Class<?> recordClass) {
        return TYPES.get(recordClass);
    }

    /** The six headers of one new record of type {@code type} (see {@link #type}): a fresh id, the current time. */
    public Header[] next(Header type) {
        return new Header[] {
            SPEC_VERSION,
            new RecordHeader(CloudEvents.ID, newId()),
            source(),
            type,
            new RecordHeader(CloudEvents.TIME, now()),
            CONTENT_TYPE
        };
    }

    /**
     * The six headers of a record of an {@link IdentifiedEvent}: {@code ce_id} is {@link #idOf(String)} of its id,
     * the same for every copy, so consumers can deduplicate by it.
     */
    public Header[] next(Header type, String eventId) {
        Header[] headers = next(type);
        headers[1] = new RecordHeader(CloudEvents.ID, idOf(eventId).toString().getBytes(StandardCharsets.US_ASCII));
        return headers;
    }

    /** Writes the six headers into {@code target}, replacing those it carried (e.g. copied from an input record). */
    public void replace(Headers target, Header type) {
        replace(target, next(type));
    }

    /** As {@link #replace(Headers, Header)} for an {@link IdentifiedEvent}: {@code ce_id} from its id. */
    public void replace(Headers target, Header type, String eventId) {
        replace(target, next(type, eventId));
    }

    private static void replace(Headers target, Header[] headers) {
        for (Header header : headers) {
            target.remove(header.key());
            target.add(header);
        }
    }

    /**
     * The {@code ce_id} of an event whose own id is {@code eventId}: the name-based (version 3) UUID of its UTF-8
     * bytes, so it keeps the shape of every other {@code ce_id} and is the same wherever and however often the event
     * is written.
     */
    public static UUID idOf(String eventId) {
        return UUID.nameUUIDFromBytes(eventId.getBytes(StandardCharsets.UTF_8));
    }

    private Header source() {
        return source != null ? source : CloudEvents.sourceHeader();
    }

    /** A version-4 UUID as 36 lower-case ASCII bytes. Ids need uniqueness, not unpredictability: no SecureRandom. */
    byte[] newId() {
        RandomGenerator generator = random.get();
        long high = (generator.nextLong() & ~0xF000L) | 0x4000L;
        long low = (generator.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
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

    /** The current time as {@link Instant#toString()} of the millisecond; the array is shared within a millisecond. */
    byte[] now() {
        long millis = clock.millis();
        Stamp current = stamp;
        if (current.millis != millis) {
            current = new Stamp(millis, Instant.ofEpochMilli(millis).toString().getBytes(StandardCharsets.US_ASCII));
            stamp = current;
        }
        return current.text;
    }

    static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private record Stamp(long millis, byte[] text) {}
}
