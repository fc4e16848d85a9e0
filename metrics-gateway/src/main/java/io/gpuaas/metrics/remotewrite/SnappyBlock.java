package io.gpuaas.metrics.remotewrite;

import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import java.io.IOException;
import org.xerial.snappy.Snappy;

/**
 * Snappy block format (not the framed format), as remote-write 1.0 requires. The block starts with the
 * uncompressed length as a varint; it is read here, checked against the bound, and only then is a buffer of that
 * size allocated, so a small body cannot make the service allocate what its header claims.
 */
public final class SnappyBlock {

    private SnappyBlock() {}

    /** The uncompressed length the block {@code body[0, length)} declares. */
    public static int declaredLength(byte[] body, int length) {
        long value = 0;
        for (int i = 0, shift = 0; i < Math.min(length, 5); i++, shift += 7) {
            byte b = body[i];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                if (value > Integer.MAX_VALUE) {
                    break;
                }
                return (int) value;
            }
        }
        throw new RemoteWriteRejection(
                Reason.NOT_SNAPPY, "the body does not start with a snappy block header (Content-Encoding: snappy)");
    }

    /** The decompressed bytes {@code bytes[0, length)}. */
    public record Block(byte[] bytes, int length) {}

    /**
     * Decompresses {@code body[0, length)}: at most {@code maxBytes} compressed and at most {@code maxBytes}
     * decompressed, else {@link Reason#BODY_TOO_LARGE}; a body that is not a snappy block is {@link Reason#NOT_SNAPPY}.
     */
    public static byte[] decompress(byte[] body, int length, int maxBytes) {
        return decompress(body, length, maxBytes, null).bytes();
    }

    /**
     * As {@link #decompress(byte[], int, int)}, into {@code scratch} when it is large enough (the receiver lends one:
     * see {@link ScratchBuffers}), else into a new array of the declared length.
     */
    public static Block decompress(byte[] body, int length, int maxBytes, byte[] scratch) {
        if (length > maxBytes) {
            throw tooLarge("the body has " + length + " bytes", maxBytes);
        }
        int declared = declaredLength(body, length);
        if (declared > maxBytes) {
            throw tooLarge("the body declares " + declared + " bytes uncompressed", maxBytes);
        }
        if (declared == 0) {
            if (length != 1) {
                throw notSnappy();
            }
            return new Block(new byte[0], 0);
        }
        byte[] out = scratch != null && scratch.length >= declared ? scratch : new byte[declared];
        int written;
        try {
            written = Snappy.uncompress(body, 0, length, out, 0);
        } catch (IOException | RuntimeException e) {
            throw notSnappy();
        }
        if (written != declared) {
            throw notSnappy();
        }
        return new Block(out, declared);
    }

    private static RemoteWriteRejection tooLarge(String what, int maxBytes) {
        return new RemoteWriteRejection(Reason.BODY_TOO_LARGE, what + "; at most " + maxBytes + " are accepted");
    }

    private static RemoteWriteRejection notSnappy() {
        return new RemoteWriteRejection(
                Reason.NOT_SNAPPY, "the body is not snappy block format (Content-Encoding: snappy)");
    }
}
