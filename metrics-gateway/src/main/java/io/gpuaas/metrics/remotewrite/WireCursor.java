package io.gpuaas.metrics.remotewrite;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A cursor over protobuf wire-format bytes. Every read is checked against the end of the message it belongs to, so
 * a truncated body, a varint that never ends or a length pointing past its parent is a {@link RemoteWriteRejection},
 * never an out-of-bounds read or an allocation the body did not pay for. Not thread-safe; one per request.
 */
final class WireCursor {

    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int START_GROUP = 3;
    static final int END_GROUP = 4;
    static final int FIXED32 = 5;

    /** Groups (a proto2 relic) nest; a body nesting deeper than this is an attack, not a WriteRequest. */
    private static final int MAX_GROUP_DEPTH = 16;

    private final byte[] buf;
    private int pos;

    WireCursor(byte[] buf, int pos) {
        this.buf = buf;
        this.pos = pos;
    }

    int position() {
        return pos;
    }

    /** The next field's tag (field number and wire type), read before {@code end}. */
    int tag(int end) {
        long tag = varint(end);
        if (tag >>> 3 == 0 || tag > 0xFFFF_FFFFL) {
            throw malformed("a field number outside 1..2^29-1");
        }
        return (int) tag;
    }

    static int fieldNumber(int tag) {
        return tag >>> 3;
    }

    static int wireType(int tag) {
        return tag & 7;
    }

    static int tag(int fieldNumber, int wireType) {
        return fieldNumber << 3 | wireType;
    }

    /** A base-128 varint of at most ten bytes ending before {@code end}. */
    long varint(int end) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw malformed("a varint cut off by the end of its message");
            }
            byte b = buf[pos++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw malformed("a varint longer than ten bytes");
    }

    /** A little-endian 64-bit double ending before {@code end}. */
    double fixed64Double(int end) {
        return Double.longBitsToDouble(fixed64(end));
    }

    private long fixed64(int end) {
        if (end - pos < 8) {
            throw malformed("a 64-bit value cut off by the end of its message");
        }
        long value = (long) LITTLE_ENDIAN_LONG.get(buf, pos);
        pos += 8;
        return value;
    }

    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Reads a length prefix and returns where the field it announces ends, which must be within {@code end}. */
    int lengthDelimitedEnd(int end) {
        long length = varint(end);
        if (length > end - pos) {
            throw malformed("a length of " + length + " bytes past the end of its message");
        }
        return pos + (int) length;
    }

    /** Moves to {@code to}, the end of a length-delimited field read in place. */
    void jump(int to) {
        pos = to;
    }

    /** Skips the value of a field this reader does not use, whatever its wire type. */
    void skip(int tag, int end) {
        skip(tag, end, 0);
    }

    private void skip(int tag, int end, int depth) {
        switch (wireType(tag)) {
            case VARINT -> varint(end);
            case FIXED64 -> advance(8, end);
            case LENGTH_DELIMITED -> pos = lengthDelimitedEnd(end);
            case FIXED32 -> advance(4, end);
            case START_GROUP -> skipGroup(fieldNumber(tag), end, depth + 1);
            default -> throw malformed("wire type " + wireType(tag) + " where a field starts");
        }
    }

    private void skipGroup(int fieldNumber, int end, int depth) {
        if (depth > MAX_GROUP_DEPTH) {
            throw malformed("groups nested deeper than " + MAX_GROUP_DEPTH);
        }
        while (true) {
            int inner = tag(end);
            if (wireType(inner) == END_GROUP) {
                if (fieldNumber(inner) != fieldNumber) {
                    throw malformed("a group closed by another field's end tag");
                }
                return;
            }
            skip(inner, end, depth);
        }
    }

    private void advance(int bytes, int end) {
        if (end - pos < bytes) {
            throw malformed("a fixed-size value cut off by the end of its message");
        }
        pos += bytes;
    }

    private RemoteWriteRejection malformed(String what) {
        return RemoteWriteRejection.malformed(what + " at byte " + pos);
    }
}
