package io.gpuaas.events.gpu;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * Reads the GpuScrape body producers write (known properties, each at most once per object, in any order; the
 * scalars of {@link JsonCursor}) into the record Jackson would build, or answers null for anything else: an unknown
 * or repeated property, an escape, a wrong token type, a missing required property, a value outside a bound of the
 * schema. The caller then hands the body to the generic reader, which returns the same record or the same error.
 * Only the common, valid shape is fast; no input gets a different answer.
 *
 * <p>The bounds are those of {@code io.gpuaas.gpu.scrape.v1.json}: {@code time}, {@code node} and {@code devices}
 * required, {@code node} not empty; per device {@code uuid} required and not empty, {@code utilization} a ratio
 * 0..1, {@code utilizationSource} one of its enum, memory and power not negative. {@code GpuScrapeCodecBoundsTest}
 * puts a value on and past every bound the schema declares and fails when this reader and the generic one disagree.
 */
final class GpuScrapeJsonReader {

    /** The properties in component order, which is the order producers write them in. */
    private static final byte[][] SCRAPE_NAMES = names("time", "node", "target", "devices");

    private static final byte[][] DEVICE_NAMES = names(
            "uuid",
            "gpuIndex",
            "modelName",
            "gpuInstanceId",
            "migProfile",
            "hostnameLabel",
            "namespace",
            "pod",
            "container",
            "utilization",
            "utilizationSource",
            "memoryUsedMiB",
            "memoryFreeMiB",
            "powerWatts",
            "decoderUtilPercent",
            "encoderUtilPercent");

    private static final int DEVICES = 3;
    private static final int MAX_INDEX_DIGITS = 9;

    private final JsonCursor in;
    private Instant time;
    private String node;
    private String target;
    private List<GpuScrape.Device> devices;
    /** The values of the device being read, by its property index. */
    private final Object[] device = new Object[DEVICE_NAMES.length];

    private final IntConsumer scrapeValue = this::scrapeValue;
    private final IntConsumer deviceValue = this::deviceValue;

    private GpuScrapeJsonReader(byte[] body) {
        this.in = new JsonCursor(body);
    }

    /** The scrape, or null when the body is not in the fast shape (the generic reader decides then). */
    static GpuScrape read(byte[] body) {
        try {
            return new GpuScrapeJsonReader(body).scrape();
        } catch (JsonCursor.NotFast | DateTimeException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    private static byte[][] names(String... names) {
        return Stream.of(names).map(n -> n.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    }

    private GpuScrape scrape() {
        in.skipSpace();
        object(SCRAPE_NAMES, scrapeValue);
        in.skipSpace();
        if (!in.atEnd() || time == null || node == null || node.isEmpty() || devices == null) {
            throw JsonCursor.NOT_FAST;
        }
        return new GpuScrape(time, node, target, devices);
    }

    /** Reads one object of {@code names}, handing each non-null value's index to {@code value}. */
    private void object(byte[][] names, IntConsumer value) {
        in.expect('{');
        in.skipSpace();
        int seen = 0;
        int field = -1;
        while (true) {
            field = in.name(names, field + 1);
            if ((seen & (1 << field)) != 0) {
                throw JsonCursor.NOT_FAST;
            }
            seen |= 1 << field;
            in.skipSpace();
            in.expect(':');
            in.skipSpace();
            if (!in.skipNull()) {
                value.accept(field);
            }
            in.skipSpace();
            byte c = in.next();
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw JsonCursor.NOT_FAST;
            }
            in.skipSpace();
        }
    }

    private void scrapeValue(int field) {
        switch (field) {
            case 0 -> time = in.instant();
            case 1 -> node = in.string();
            case 2 -> target = in.string();
            case DEVICES -> devices = devices();
            default -> throw new IllegalStateException("no property " + field);
        }
    }

    private List<GpuScrape.Device> devices() {
        in.expect('[');
        in.skipSpace();
        List<GpuScrape.Device> list = new ArrayList<>(8);
        if (in.peek() == ']') {
            in.next();
            return list;
        }
        while (true) {
            list.add(device());
            in.skipSpace();
            byte c = in.next();
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                throw JsonCursor.NOT_FAST;
            }
            in.skipSpace();
        }
    }

    private GpuScrape.Device device() {
        Arrays.fill(device, null);
        object(DEVICE_NAMES, deviceValue);
        GpuScrape.Device d = new GpuScrape.Device(
                (String) device[0],
                (Integer) device[1],
                (String) device[2],
                (String) device[3],
                (String) device[4],
                (String) device[5],
                (String) device[6],
                (String) device[7],
                (String) device[8],
                (Double) device[9],
                (String) device[10],
                (Double) device[11],
                (Double) device[12],
                (Double) device[13],
                (Double) device[14],
                (Double) device[15]);
        if (!withinSchema(d)) {
            throw JsonCursor.NOT_FAST;
        }
        return d;
    }

    private void deviceValue(int field) {
        device[field] = switch (field) {
            case 1 -> (int) in.integer(MAX_INDEX_DIGITS);
            case 9, 11, 12, 13, 14, 15 -> in.number();
            default -> in.string();
        };
    }

    /** The schema's constraints on a device; the generic reader rejects what fails them, naming the rule. */
    private static boolean withinSchema(GpuScrape.Device d) {
        return d.uuid() != null
                && !d.uuid().isEmpty()
                && (d.utilization() == null || (d.utilization() >= 0 && d.utilization() <= 1))
                && (d.utilizationSource() == null
                        || "GR_ENGINE_ACTIVE".equals(d.utilizationSource())
                        || "GPU_UTIL".equals(d.utilizationSource()))
                && notNegative(d.memoryUsedMiB())
                && notNegative(d.memoryFreeMiB())
                && notNegative(d.powerWatts())
                && percent(d.decoderUtilPercent())
                && percent(d.encoderUtilPercent());
    }

    private static boolean percent(Double value) {
        return value == null || (value >= 0 && value <= 100);
    }

    private static boolean notNegative(Double value) {
        return value == null || value >= 0;
    }
}
