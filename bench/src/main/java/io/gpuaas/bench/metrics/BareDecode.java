package io.gpuaas.bench.metrics;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.xerial.snappy.Snappy;

/**
 * The baseline of the remote-write figure: a bare snappy + protobuf decode of the same requests with the standard
 * libraries, as a receiver built on generated classes would do it before any mapping: snappy-java decompresses,
 * protobuf-java's {@link CodedInputStream} reads every field, every label name and value becomes a String (proto3
 * {@code string}: validated UTF-8), every sample a double and a long. No objects besides the Strings, no Kafka.
 */
final class BareDecode {

    private BareDecode() {}

    /** Decodes one body; returns its samples (a checksum of the values keeps the JIT from dropping the work). */
    static long samples(byte[] body, double[] checksum) {
        try {
            byte[] raw = Snappy.uncompress(body);
            CodedInputStream in = CodedInputStream.newInstance(raw);
            long samples = 0;
            int tag;
            while ((tag = in.readTag()) != 0) {
                if (tag == (1 << 3 | 2)) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    samples += series(in, checksum);
                    in.popLimit(limit);
                } else {
                    in.skipField(tag);
                }
            }
            return samples;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long series(CodedInputStream in, double[] checksum) throws IOException {
        long samples = 0;
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag != (1 << 3 | 2) && tag != (2 << 3 | 2)) {
                in.skipField(tag);
                continue;
            }
            int limit = in.pushLimit(in.readRawVarint32());
            if (tag == (1 << 3 | 2)) {
                label(in, checksum);
            } else {
                sample(in, checksum);
                samples++;
            }
            in.popLimit(limit);
        }
        return samples;
    }

    private static void label(CodedInputStream in, double[] checksum) throws IOException {
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag == (1 << 3 | 2) || tag == (2 << 3 | 2)) {
                checksum[0] += in.readStringRequireUtf8().length();
            } else {
                in.skipField(tag);
            }
        }
    }

    private static void sample(CodedInputStream in, double[] checksum) throws IOException {
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag == (1 << 3 | 1)) {
                checksum[0] += in.readDouble();
            } else if (tag == (2 << 3)) {
                checksum[0] += in.readInt64();
            } else {
                in.skipField(tag);
            }
        }
    }
}
