package io.gpuaas.events.gpu;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * Reads the GpuSample body producers write (known properties, each at most once, in any order; the scalars of
 * {@link JsonCursor}) into the record Jackson would build, or answers null for anything else: an unknown or
 * repeated property, an escape, a wrong token type, a missing required property, a value outside a bound of the
 * schema. The caller then hands the body to the generic reader, which returns the same record or the same error.
 * Only the common, valid shape is fast; no input gets a different answer.
 *
 * <p>The bounds are those of {@code io.gpuaas.gpu.sample.v1.json}, which {@code SchemaValidation.REQUIRED_FIELDS}
 * checks on the topic's generic reader: {@code time}, {@code hostname}, {@code uuid} required, {@code hostname} and
 * {@code uuid} not empty, {@code utilization} a ratio 0..1, {@code utilizationSource} one of its enum, memory and
 * power not negative. {@code GpuSampleCodecBoundsTest} puts a value on and past every bound the schema declares
 * and fails when this reader and the generic one disagree, so a schema change cannot leave it behind.
 */
final class GpuSampleJsonReader {

    /** The properties in component order, which is the order producers write them in. */
    private static final byte[][] NAMES = Stream.of(
                    "time",
                    "hostname",
                    "uuid",
                    "gpuIndex",
                    "modelName",
                    "gpuInstanceId",
                    "migProfile",
                    "namespace",
                    "pod",
                    "container",
                    "utilization",
                    "utilizationSource",
                    "memoryUsedMiB",
                    "memoryFreeMiB",
                    "powerWatts")
            .map(n -> n.getBytes(StandardCharsets.US_ASCII))
            .toArray(byte[][]::new);

    private static final int MAX_INDEX_DIGITS = 9;

    private final JsonCursor in;
    private Instant time;
    private String hostname;
    private String uuid;
    private Integer gpuIndex;
    private String modelName;
    private String gpuInstanceId;
    private String migProfile;
    private String namespace;
    private String pod;
    private String container;
    private Double utilization;
    private String utilizationSource;
    private Double memoryUsedMiB;
    private Double memoryFreeMiB;
    private Double powerWatts;

    private GpuSampleJsonReader(byte[] body) {
        this.in = new JsonCursor(body);
    }

    /** The sample, or null when the body is not in the fast shape (the generic reader decides then). */
    static GpuSample read(byte[] body) {
        try {
            return new GpuSampleJsonReader(body).object();
        } catch (JsonCursor.NotFast | DateTimeException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    private GpuSample object() {
        in.skipSpace();
        in.expect('{');
        in.skipSpace();
        int seen = 0;
        int field = -1;
        while (true) {
            field = in.name(NAMES, field + 1);
            if ((seen & (1 << field)) != 0) {
                throw JsonCursor.NOT_FAST;
            }
            seen |= 1 << field;
            in.skipSpace();
            in.expect(':');
            in.skipSpace();
            if (!in.skipNull()) {
                value(field);
            }
            in.skipSpace();
            byte c = in.next();
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw JsonCursor.NOT_FAST;
            }
            in.skipSpace();
        }
        in.skipSpace();
        if (!in.atEnd() || !withinSchema()) {
            throw JsonCursor.NOT_FAST;
        }
        return new GpuSample(
                time,
                hostname,
                uuid,
                gpuIndex,
                modelName,
                gpuInstanceId,
                migProfile,
                namespace,
                pod,
                container,
                utilization,
                utilizationSource,
                memoryUsedMiB,
                memoryFreeMiB,
                powerWatts);
    }

    private void value(int field) {
        switch (field) {
            case 0 -> time = in.instant();
            case 1 -> hostname = in.string();
            case 2 -> uuid = in.string();
            case 3 -> gpuIndex = (int) in.integer(MAX_INDEX_DIGITS);
            case 4 -> modelName = in.string();
            case 5 -> gpuInstanceId = in.string();
            case 6 -> migProfile = in.string();
            case 7 -> namespace = in.string();
            case 8 -> pod = in.string();
            case 9 -> container = in.string();
            case 10 -> utilization = in.number();
            case 11 -> utilizationSource = in.string();
            case 12 -> memoryUsedMiB = in.number();
            case 13 -> memoryFreeMiB = in.number();
            case 14 -> powerWatts = in.number();
            default -> throw new IllegalStateException("no property " + field);
        }
    }

    /** The schema's constraints; the generic reader rejects what fails them, naming the rule. */
    private boolean withinSchema() {
        return time != null
                && hostname != null
                && !hostname.isEmpty()
                && uuid != null
                && !uuid.isEmpty()
                && (utilization == null || (utilization >= 0 && utilization <= 1))
                && (utilizationSource == null
                        || "GR_ENGINE_ACTIVE".equals(utilizationSource)
                        || "GPU_UTIL".equals(utilizationSource))
                && notNegative(memoryUsedMiB)
                && notNegative(memoryFreeMiB)
                && notNegative(powerWatts);
    }

    private static boolean notNegative(Double value) {
        return value == null || value >= 0;
    }
}
