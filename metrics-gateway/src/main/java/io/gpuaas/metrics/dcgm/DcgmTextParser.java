package io.gpuaas.metrics.dcgm;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Reads dcgm-exporter output (Prometheus text format 0.0.4) straight from the response bytes into one
 * GpuScrape of every device of the node. Hand-written rather than regex-based because at 10,000 GPUs every scrape
 * cycle is on the hot path: it scans each byte once, reads labels only on the counters a GpuScrape carries,
 * allocates no Strings for label values it has seen before, and skips a malformed line (counting it) instead of
 * failing the scrape. A device that reports none of those counters is left out (it has no reading to give). The
 * node of a device is the one the gateway knows the exporter runs on, not the exporter's {@code Hostname} label
 * ({@link DcgmEndpoint}). One instance per scrape target; not thread-safe.
 */
public final class DcgmTextParser {

    private final StringPool pool = new StringPool();
    private final DeviceTable devices = new DeviceTable();
    private final int[] valueFrom = new int[DcgmLabel.COUNT];
    private final int[] valueTo = new int[DcgmLabel.COUNT];
    private final String[] decoded = new String[DcgmLabel.COUNT];
    /** The line each label slot was last filled on: slots of older lines read as absent, so no per-line reset. */
    private final int[] filledOn = new int[DcgmLabel.COUNT];

    private int lines;
    private int badLines;

    /**
     * Parses {@code text[0, length)} scraped at {@code time} from {@code endpoint}, which decides the node of each
     * device (see {@link DcgmEndpoint}).
     */
    public DcgmScrape parse(byte[] text, int length, Instant time, DcgmEndpoint endpoint) {
        devices.clear();
        Arrays.fill(filledOn, -1);
        lines = 0;
        badLines = 0;
        int pos = 0;
        while (pos < length) {
            int eol = ByteScan.newline(text, pos, length);
            parseLine(text, pos, eol, endpoint);
            pos = eol + 1;
        }
        return new DcgmScrape(devices.scrapes(time, endpoint.target()), devices.size(), lines, badLines);
    }

    /** Convenience for tests and tools: parses a whole String from an exporter known only as {@code host}. */
    public DcgmScrape parse(String text, Instant time, String host) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return parse(bytes, bytes.length, time, DcgmEndpoint.unknown(host));
    }

    private void parseLine(byte[] text, int from, int to, DcgmEndpoint endpoint) {
        int pos = Ascii.skipBlanks(text, from, to);
        if (pos == to || text[pos] == '#') {
            return;
        }
        lines++;
        if (!readLine(text, pos, to, endpoint)) {
            badLines++;
        }
    }

    /** Reads one sample line; false when it is malformed (nothing of it is kept then). */
    private boolean readLine(byte[] text, int pos, int to, DcgmEndpoint endpoint) {
        int nameFrom = pos;
        if (!Ascii.isNameStart(text[pos])) {
            return false;
        }
        while (pos < to && Ascii.isNamePart(text[pos])) {
            pos++;
        }
        DcgmField field = DcgmField.of(text, nameFrom, pos);
        if (field == null) {
            // Counters a GpuScrape does not carry (temperatures, clocks, ...) are most of a default exporter's
            // output: their labels are not read, which is most of the parse time saved.
            return true;
        }
        int afterName = pos;
        pos = Ascii.skipBlanks(text, pos, to);
        if (pos < to && text[pos] == '{') {
            pos = readLabels(text, pos + 1, to);
            if (pos < 0) {
                return false;
            }
        } else if (pos == afterName) {
            return false; // a name must be followed by labels or a blank
        }
        int valueStart = Ascii.skipBlanks(text, pos, to);
        int valueEnd = valueStart;
        while (valueEnd < to && !Ascii.isBlank(text[valueEnd])) {
            valueEnd++;
        }
        double value = PromNumber.parse(text, valueStart, valueEnd);
        if (PromNumber.isInvalid(value) || !timestampOnly(text, valueEnd, to)) {
            return false;
        }
        record(field, value, text, endpoint);
        return true;
    }

    private static boolean timestampOnly(byte[] text, int pos, int to) {
        int from = Ascii.skipBlanks(text, pos, to);
        if (from == to) {
            return true;
        }
        int end = from;
        while (end < to && !Ascii.isBlank(text[end])) {
            end++;
        }
        return PromNumber.isTimestamp(text, from, end) && Ascii.skipBlanks(text, end, to) == to;
    }

    /** Reads {@code name="value",...}} from just after the brace; returns the position after the closing brace or -1. */
    private int readLabels(byte[] text, int pos, int to) {
        while (true) {
            pos = Ascii.skipBlanks(text, pos, to);
            if (pos >= to) {
                return -1;
            }
            if (text[pos] == '}') {
                return pos + 1;
            }
            int nameFrom = pos;
            if (!Ascii.isNameStart(text[pos]) || text[pos] == ':') {
                return -1;
            }
            while (pos < to && Ascii.isNamePart(text[pos]) && text[pos] != ':') {
                pos++;
            }
            DcgmLabel label = DcgmLabel.of(text, nameFrom, pos);
            pos = Ascii.skipBlanks(text, pos, to);
            if (pos + 1 >= to || text[pos] != '=') {
                return -1;
            }
            pos = Ascii.skipBlanks(text, pos + 1, to);
            if (pos >= to || text[pos] != '"') {
                return -1;
            }
            pos = readLabelValue(text, pos + 1, to, label);
            if (pos < 0) {
                return -1;
            }
            pos = Ascii.skipBlanks(text, pos, to);
            if (pos < to && text[pos] == ',') {
                pos++;
            } else if (pos >= to || text[pos] != '}') {
                return -1;
            }
        }
    }

    /** Reads a quoted value from just after the opening quote; returns the position after the closing quote or -1. */
    private int readLabelValue(byte[] text, int pos, int to, DcgmLabel label) {
        int from = pos;
        boolean escaped = false;
        while ((pos = ByteScan.quoteOrBackslash(text, pos, to)) < to && text[pos] != '"') {
            if (pos + 1 >= to || !isEscapable(text[pos + 1])) {
                return -1;
            }
            escaped = true;
            pos += 2;
        }
        if (pos >= to) {
            return -1;
        }
        if (label != null) {
            filledOn[label.ordinal()] = lines;
            valueFrom[label.ordinal()] = from;
            valueTo[label.ordinal()] = pos;
            decoded[label.ordinal()] = escaped ? unescape(text, from, pos) : null;
        }
        return pos + 1;
    }

    private static boolean isEscapable(byte c) {
        return c == '\\' || c == '"' || c == 'n';
    }

    private static String unescape(byte[] text, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            byte c = text[i];
            if (c == '\\') {
                c = text[++i] == 'n' ? (byte) '\n' : text[i];
            }
            out.write(c);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private void record(DcgmField field, double value, byte[] text, DcgmEndpoint endpoint) {
        String uuid = label(DcgmLabel.UUID, text);
        if (uuid == null) {
            return; // not a per-device series (e.g. an exporter self-metric): valid, but nothing to attribute
        }
        String hostname = label(DcgmLabel.HOSTNAME, text);
        DeviceTable.Device device =
                devices.find(endpoint.nodeOf(hostname), uuid, label(DcgmLabel.GPU_INSTANCE_ID, text), hostname);
        if (device.gpu == null) {
            device.gpu = label(DcgmLabel.GPU, text);
        }
        if (device.modelName == null) {
            device.modelName = label(DcgmLabel.MODEL_NAME, text);
        }
        if (device.migProfile == null) {
            device.migProfile = label(DcgmLabel.GPU_INSTANCE_PROFILE, text);
        }
        if (device.pod == null) {
            device.pod = label(DcgmLabel.POD, text);
            device.namespace = label(DcgmLabel.NAMESPACE, text);
            device.container = label(DcgmLabel.CONTAINER, text);
        }
        device.set(field, value);
    }

    /** The value of {@code label} on the current line; null when absent or empty (empty means "no pod"). */
    private String label(DcgmLabel label, byte[] text) {
        int i = label.ordinal();
        if (filledOn[i] != lines || valueFrom[i] == valueTo[i]) {
            return null;
        }
        return decoded[i] != null ? decoded[i] : pool.get(text, valueFrom[i], valueTo[i]);
    }
}
