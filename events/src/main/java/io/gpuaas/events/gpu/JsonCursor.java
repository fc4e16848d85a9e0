package io.gpuaas.events.gpu;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A position in a JSON body and the scalars of the one spelling gpuaas producers write: strings of printable ASCII
 * without escapes, plain numbers, {@code "yyyy-MM-ddTHH:mm:ss[.f]Z"} instants. Anything else, including what Jackson
 * would accept or reject, throws {@link #NOT_FAST} (or runs past the end of the array), and the caller hands the
 * body to the generic reader, which decides. Every value it does return is the one Jackson would bind.
 */
final class JsonCursor {

    /** Thrown, without a stack, when the body leaves the fast shape; one instance, as it carries nothing. */
    static final class NotFast extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private NotFast() {
            super(null, null, false, false);
        }
    }

    static final NotFast NOT_FAST = new NotFast();

    private static final int MAX_LONG_DIGITS = 18;
    private static final int MAX_NUMBER_LENGTH = 64;
    /** Digits below 2^53, so a long of them converts to double exactly. */
    private static final int MAX_EXACT_DIGITS = 15;

    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
    };
    private static final int SECONDS_PER_DAY = 86_400;

    private final byte[] b;
    private int p;

    JsonCursor(byte[] body) {
        this.b = body;
    }

    byte next() {
        return b[p++];
    }

    byte peek() {
        return b[p];
    }

    boolean atEnd() {
        return p == b.length;
    }

    void expect(char c) {
        if (b[p++] != c) {
            throw NOT_FAST;
        }
    }

    void skipSpace() {
        while (p < b.length && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t')) {
            p++;
        }
    }

    /** Moves past a {@code null} literal if one is next. */
    boolean skipNull() {
        if (b[p] != 'n') {
            return false;
        }
        p++;
        expect('u');
        expect('l');
        expect('l');
        return true;
    }

    /** The index in {@code names} of the quoted name that is next, trying {@code likely} first. */
    int name(byte[][] names, int likely) {
        expect('"');
        int start = p;
        int end = stringEnd();
        if (likely < names.length && matches(names[likely], start, end)) {
            return likely;
        }
        for (int i = 0; i < names.length; i++) {
            if (matches(names[i], start, end)) {
                return i;
            }
        }
        throw NOT_FAST;
    }

    private boolean matches(byte[] name, int start, int end) {
        return name.length == end - start && java.util.Arrays.equals(b, start, end, name, 0, name.length);
    }

    String string() {
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
            if (c < 0x20 || c == '\\') { // a negative byte is non-ASCII: Jackson decodes UTF-8 there
                throw NOT_FAST;
            }
            p++;
        }
    }

    /** A JSON integer of at most {@code maxDigits} digits (no fraction or exponent). */
    long integer(int maxDigits) {
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
            throw NOT_FAST;
        }
        return negative ? -v : v;
    }

    private static boolean isNumberPart(byte c) {
        return c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' || (c >= '0' && c <= '9');
    }

    /** A JSON number as Jackson reads it into a Double: integers via long, others as Double.parseDouble would. */
    double number() {
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
        if (p - start > MAX_NUMBER_LENGTH) { // far below Jackson's limit, which the generic reader applies
            throw NOT_FAST;
        }
        if (fractionDigits < 0 && !exponent) {
            if (intDigits > MAX_LONG_DIGITS) {
                throw NOT_FAST;
            }
            long v = digitsValue(intStart);
            // Jackson reads an integer token as a long first, so "-0" is 0.0, not -0.0.
            return negative ? -v : v;
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

    /**
     * {@code "yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z"}, without {@code DateTimeFormatter} (a third of Jackson's cost per
     * sample); any other spelling Jackson may accept goes the generic way. An impossible date throws
     * {@link java.time.DateTimeException}.
     */
    Instant instant() {
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
        int nanos = b[p] == '.' ? fraction() : 0;
        expect('Z');
        expect('"');
        if (hour > 23 || minute > 59 || second > 59) {
            throw NOT_FAST;
        }
        long days = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(days * SECONDS_PER_DAY + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** {@code .f{1,9}} as nanoseconds. */
    private int fraction() {
        p++;
        int start = p;
        int nanos = 0;
        while (b[p] >= '0' && b[p] <= '9') {
            nanos = nanos * 10 + (b[p++] - '0');
            if (p - start > 9) {
                throw NOT_FAST;
            }
        }
        int n = p - start;
        if (n == 0) {
            throw NOT_FAST;
        }
        for (int i = n; i < 9; i++) {
            nanos *= 10;
        }
        return nanos;
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
}
