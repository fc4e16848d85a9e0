package io.gpuaas.reclaim.stream;

import io.gpuaas.events.gpu.GpuSample;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads the GpuSample body producers write (known properties, ASCII strings without escapes, plain numbers,
 * {@code yyyy-MM-ddTHH:mm:ss[.f]Z} instants) into the record Jackson would build; null for anything else (unknown or
 * repeated property, escape, wrong token type, missing required property, a value outside a bound of the schema),
 * which the caller then hands to the contract's deserializer. Only the common, valid shape is fast; no input gets
 * a different answer, so an out-of-range sample is rejected by the contract exactly as before.
 *
 * <p>The bounds are those of {@code io.gpuaas.gpu.sample.v1.json}: {@code hostname} and {@code uuid} not empty,
 * {@code utilization} a ratio 0..1, {@code utilizationSource} one of its enum, memory and power not negative.
 * {@code GpuSampleJsonBoundsTest} generates values on and past every bound the schema declares and fails when the
 * two disagree, so a schema change cannot leave this reader behind.
 */
final class GpuSampleJson {

    private static final byte[][] NAME_BYTES = java.util.stream.Stream.of("time", "hostname", "uuid", "gpuIndex",
            "modelName", "gpuInstanceId", "migProfile", "namespace", "pod", "container", "utilization",
            "utilizationSource", "memoryUsedMiB", "memoryFreeMiB", "powerWatts")
            .map(n -> n.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private static final int TIME = 0;
    private static final int HOSTNAME = 1;
    private static final int UUID = 2;
    private static final int GPU_INDEX = 3;
    private static final int UTILIZATION = 10;
    private static final int UTILIZATION_SOURCE = 11;
    private static final int MEMORY_USED = 12;
    private static final int MEMORY_FREE = 13;
    private static final int POWER = 14;
    private static final int MAX_LONG_DIGITS = 18;
    private static final int MAX_NUMBER_LENGTH = 64;
    /** Digits below 2^53, so a long of them converts to double exactly. */
    private static final int MAX_EXACT_DIGITS = 15;
    private static final double[] POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15};

    /** Thrown (without a stack) when the body leaves the fast shape. */
    private static final class NotFast extends RuntimeException {
        NotFast() {
            super(null, null, false, false);
        }
    }

    private static final NotFast NOT_FAST = new NotFast();

    private final byte[] b;
    private int p;
    private final Object[] values = new Object[NAME_BYTES.length];

    private GpuSampleJson(byte[] body) {
        this.b = body;
    }

    /** The sample, or null when the body is not in the fast shape (the contract's deserializer decides then). */
    static GpuSample read(byte[] body) {
        try {
            return new GpuSampleJson(body).object();
        } catch (NotFast | DateTimeException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    private GpuSample object() {
        skipSpace();
        expect('{');
        skipSpace();
        int seen = 0;
        while (true) {
            int field = name();
            if ((seen & (1 << field)) != 0) {
                throw NOT_FAST;
            }
            seen |= 1 << field;
            skipSpace();
            expect(':');
            skipSpace();
            values[field] = value(field);
            skipSpace();
            byte c = b[p++];
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw NOT_FAST;
            }
            skipSpace();
        }
        skipSpace();
        if (p != b.length || values[TIME] == null || values[HOSTNAME] == null || values[UUID] == null
                || !withinSchema()) {
            throw NOT_FAST;
        }
        return new GpuSample((Instant) values[TIME], (String) values[1], (String) values[2], (Integer) values[3],
                (String) values[4], (String) values[5], (String) values[6], (String) values[7], (String) values[8],
                (String) values[9], (Double) values[10], (String) values[11], (Double) values[12],
                (Double) values[13], (Double) values[14]);
    }

    /** The schema's value constraints; the contract's deserializer rejects what fails them, naming the rule. */
    private boolean withinSchema() {
        return !((String) values[HOSTNAME]).isEmpty() && !((String) values[UUID]).isEmpty()
                && ratio(values[UTILIZATION]) && notNegative(values[MEMORY_USED])
                && notNegative(values[MEMORY_FREE]) && notNegative(values[POWER])
                && knownSource(values[UTILIZATION_SOURCE]);
    }

    private static boolean ratio(Object value) {
        return value == null || ((Double) value >= 0 && (Double) value <= 1);
    }

    private static boolean notNegative(Object value) {
        return value == null || (Double) value >= 0;
    }

    private static boolean knownSource(Object value) {
        return value == null || "GR_ENGINE_ACTIVE".equals(value) || "GPU_UTIL".equals(value);
    }

    private int name() {
        expect('"');
        int start = p;
        int end = stringEnd();
        int length = end - start;
        for (int i = 0; i < NAME_BYTES.length; i++) {
            byte[] candidate = NAME_BYTES[i];
            if (candidate.length == length && java.util.Arrays.equals(b, start, end, candidate, 0, length)) {
                return i;
            }
        }
        throw NOT_FAST;
    }

    private Object value(int field) {
        if (b[p] == 'n') {
            expectLiteral("null");
            return null;
        }
        return switch (field) {
            case TIME -> instant();
            case GPU_INDEX -> (int) integer(9);
            case UTILIZATION, MEMORY_USED, MEMORY_FREE, POWER -> number();
            default -> string();
        };
    }

    private String string() {
        expect('"');
        int start = p;
        int end = stringEnd();
        return new String(b, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** Moves past the closing quote of a string of printable ASCII without escapes; returns where it ended. */
    private int stringEnd() {
        while (true) {
            byte c = b[p];
            if (c == '"') {
                return p++;
            }
            if (c < 0x20 || c == '\\') {
                throw NOT_FAST;
            }
            p++;
        }
    }

    /** A JSON integer of at most {@code maxDigits} digits (no fraction or exponent). */
    private long integer(int maxDigits) {
        int start = p;
        boolean negative = b[p] == '-';
        if (negative) {
            p++;
        }
        int digitsStart = p;
        long v = 0;
        while (b[p] >= '0' && b[p] <= '9') {
            v = v * 10 + (b[p++] - '0');
        }
        int digits = p - digitsStart;
        if (digits == 0 || digits > maxDigits || (digits > 1 && b[digitsStart] == '0') || isNumberPart(b[p])) {
            p = start;
            throw NOT_FAST;
        }
        return negative ? -v : v;
    }

    private static boolean isNumberPart(byte c) {
        return c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' || (c >= '0' && c <= '9');
    }

    /** A JSON number as Jackson reads it into a Double: integers via long, others with Double.parseDouble. */
    private Double number() {
        int start = p;
        boolean negative = b[p] == '-';
        if (negative) {
            p++;
        }
        int intStart = p;
        int intDigits = digits();
        if (intDigits == 0 || (intDigits > 1 && b[intStart] == '0')) {
            throw NOT_FAST;
        }
        int fractionDigits = -1;
        if (b[p] == '.') {
            p++;
            fractionDigits = digits();
            if (fractionDigits == 0) {
                throw NOT_FAST;
            }
        }
        boolean exponent = b[p] == 'e' || b[p] == 'E';
        if (exponent) {
            p++;
            if (b[p] == '+' || b[p] == '-') {
                p++;
            }
            if (digits() == 0) {
                throw NOT_FAST;
            }
        }
        if (p - start > MAX_NUMBER_LENGTH) { // far below Jackson's limit, which the slow path applies
            throw NOT_FAST;
        }
        if (fractionDigits < 0 && !exponent) {
            if (intDigits > MAX_LONG_DIGITS) {
                throw NOT_FAST;
            }
            long v = digitsValue(intStart);
            // Jackson reads an integer token as a long first, so "-0" is 0.0, not -0.0.
            return (double) (negative ? -v : v);
        }
        if (!exponent && intDigits + fractionDigits <= MAX_EXACT_DIGITS) {
            // Digits and 10^fraction are exact doubles, so one division is correctly rounded: Double.parseDouble's
            // answer without building a String.
            double v = digitsValue(intStart) / POWERS_OF_TEN[fractionDigits];
            return negative ? -v : v;
        }
        return Double.parseDouble(new String(b, start, p - start, StandardCharsets.ISO_8859_1));
    }

    /** The digits from {@code from} to the current position, skipping the decimal point. */
    private long digitsValue(int from) {
        long v = 0;
        for (int i = from; i < p; i++) {
            if (b[i] != '.') {
                v = v * 10 + (b[i] - '0');
            }
        }
        return v;
    }

    private int digits() {
        int start = p;
        while (b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p - start;
    }

    /** {@code "yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z"}; any other spelling Jackson may accept goes the slow way. */
    private Instant instant() {
        expect('"');
        int year = fixed(4);
        expect('-');
        int month = fixed(2);
        expect('-');
        int day = fixed(2);
        expect('T');
        int hour = fixed(2);
        expect(':');
        int minute = fixed(2);
        expect(':');
        int second = fixed(2);
        int nanos = 0;
        if (b[p] == '.') {
            p++;
            int start = p;
            while (b[p] >= '0' && b[p] <= '9') {
                nanos = nanos * 10 + (b[p++] - '0');
            }
            int n = p - start;
            if (n == 0 || n > 9) {
                throw NOT_FAST;
            }
            for (int i = n; i < 9; i++) {
                nanos *= 10;
            }
        }
        expect('Z');
        expect('"');
        if (hour > 23 || minute > 59 || second > 59) {
            throw NOT_FAST;
        }
        long days = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    private int fixed(int n) {
        int v = 0;
        for (int i = 0; i < n; i++) {
            byte c = b[p++];
            if (c < '0' || c > '9') {
                throw NOT_FAST;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private void expect(char c) {
        if (b[p++] != c) {
            throw NOT_FAST;
        }
    }

    private void expectLiteral(String literal) {
        literal.chars().forEach(c -> expect((char) c));
    }

    private void skipSpace() {
        while (p < b.length && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t')) {
            p++;
        }
    }
}
