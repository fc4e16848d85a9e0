package io.gpuaas.reclaim.model;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The byte layout of {@link java.io.DataOutputStream} (big-endian numbers, strings as modified UTF-8 behind an
 * unsigned 16-bit length), written and read on a plain array. The state codec and the repartition serde run once
 * per sample; the stream classes cost a synchronized call per byte group and a copy per string, which showed as
 * the largest single item of the window step in a profile. Same bytes, so existing changelogs still read.
 */
public final class Binary {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Binary() {}

    /** A growable output buffer. */
    public static final class Writer {

        private byte[] buf;
        private int pos;

        public Writer(int initialCapacity) {
            buf = new byte[Math.max(16, initialCapacity)];
        }

        private void ensure(int more) {
            if (pos + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
            }
        }

        public void writeByte(int v) {
            ensure(1);
            buf[pos++] = (byte) v;
        }

        public void writeBoolean(boolean v) {
            writeByte(v ? 1 : 0);
        }

        public void writeShort(int v) {
            ensure(2);
            buf[pos++] = (byte) (v >>> 8);
            buf[pos++] = (byte) v;
        }

        public void writeInt(int v) {
            ensure(4);
            INT.set(buf, pos, v);
            pos += 4;
        }

        public void writeLong(long v) {
            ensure(8);
            LONG.set(buf, pos, v);
            pos += 8;
        }

        public void writeDouble(double v) {
            writeLong(Double.doubleToLongBits(v));
        }

        /** {@link java.io.DataOutputStream#writeUTF}, in one pass over the characters. */
        public void writeUTF(String s) {
            int n = s.length();
            ensure(2 + 3 * n);
            int lengthAt = pos;
            pos += 2;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x0001 && c <= 0x007F) {
                    buf[pos++] = (byte) c;
                } else if (c <= 0x07FF) {
                    buf[pos++] = (byte) (0xC0 | (c >> 6));
                    buf[pos++] = (byte) (0x80 | (c & 0x3F));
                } else {
                    buf[pos++] = (byte) (0xE0 | (c >> 12));
                    buf[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    buf[pos++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            int encoded = pos - lengthAt - 2;
            if (encoded > 65_535) {
                throw new IllegalArgumentException("string too long for the binary layout: " + encoded + " bytes");
            }
            buf[lengthAt] = (byte) (encoded >>> 8);
            buf[lengthAt + 1] = (byte) encoded;
        }

        public void writeBytes(byte[] bytes) {
            ensure(bytes.length);
            System.arraycopy(bytes, 0, buf, pos, bytes.length);
            pos += bytes.length;
        }

        public byte[] toByteArray() {
            return Arrays.copyOf(buf, pos);
        }
    }

    /** Reads what {@link Writer} (or a DataOutputStream) wrote. */
    public static final class Reader {

        private final byte[] buf;
        private int pos;

        public Reader(byte[] buf) {
            this.buf = buf;
        }

        private void need(int n) {
            if (pos + n > buf.length) {
                throw new IllegalArgumentException("truncated binary record: " + buf.length + " bytes");
            }
        }

        public byte readByte() {
            need(1);
            return buf[pos++];
        }

        public boolean readBoolean() {
            return readByte() != 0;
        }

        public int readUnsignedShort() {
            need(2);
            int v = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
            pos += 2;
            return v;
        }

        public int readInt() {
            need(4);
            int v = (int) INT.get(buf, pos);
            pos += 4;
            return v;
        }

        public long readLong() {
            need(8);
            long v = (long) LONG.get(buf, pos);
            pos += 8;
            return v;
        }

        public double readDouble() {
            return Double.longBitsToDouble(readLong());
        }

        /** {@link java.io.DataInputStream#readUTF}, with plain ASCII decoded without the general loop. */
        public String readUTF() {
            int length = readUnsignedShort();
            need(length);
            int start = pos;
            pos += length;
            for (int i = start; i < pos; i++) {
                if (buf[i] <= 0) {
                    return general(start, length);
                }
            }
            return new String(buf, start, length, StandardCharsets.ISO_8859_1);
        }

        private String general(int start, int length) {
            byte[] framed = new byte[length + 2];
            framed[0] = (byte) (length >>> 8);
            framed[1] = (byte) length;
            System.arraycopy(buf, start, framed, 2, length);
            try {
                return new DataInputStream(new ByteArrayInputStream(framed)).readUTF();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
