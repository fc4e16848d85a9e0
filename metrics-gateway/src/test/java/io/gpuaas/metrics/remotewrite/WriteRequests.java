package io.gpuaas.metrics.remotewrite;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.xerial.snappy.Snappy;

/**
 * Remote-write 1.0 bodies for tests, encoded with protobuf-java's own writer (not this module's reader's code), so
 * the reader is checked against an independent implementation of the wire format. Labels are sorted as the spec
 * requires of senders.
 */
public final class WriteRequests {

    public record Label(String name, String value) {}

    public record Sample(double value, long timestampMillis) {}

    public record TimeSeries(List<Label> labels, List<Sample> samples) {}

    private WriteRequests() {}

    /** A series named {@code name} with {@code labels} and one sample. */
    public static TimeSeries series(String name, Map<String, String> labels, double value, long timestampMillis) {
        Map<String, String> all = new TreeMap<>(labels);
        all.put("__name__", name);
        List<Label> sorted = new ArrayList<>();
        all.forEach((k, v) -> sorted.add(new Label(k, v)));
        sorted.sort(Comparator.comparing(Label::name));
        return new TimeSeries(sorted, List.of(new Sample(value, timestampMillis)));
    }

    /** The uncompressed WriteRequest of {@code series}. */
    public static byte[] encode(List<TimeSeries> series) {
        return message(out -> {
            for (TimeSeries s : series) {
                out.writeByteArray(1, encode(s));
            }
        });
    }

    /** The body Prometheus sends: the encoded request, snappy block-compressed. */
    public static byte[] body(List<TimeSeries> series) {
        return snappy(encode(series));
    }

    public static byte[] snappy(byte[] raw) {
        try {
            return Snappy.compress(raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] encode(TimeSeries series) {
        return message(out -> {
            for (Label label : series.labels()) {
                out.writeByteArray(1, message(l -> {
                    l.writeString(1, label.name());
                    l.writeString(2, label.value());
                }));
            }
            for (Sample sample : series.samples()) {
                out.writeByteArray(2, message(s -> {
                    s.writeDouble(1, sample.value());
                    s.writeInt64(2, sample.timestampMillis());
                }));
            }
        });
    }

    /** Writes one message's fields with protobuf's encoder and returns its bytes. */
    public static byte[] message(Fields fields) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            fields.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    public interface Fields {
        void write(CodedOutputStream out) throws IOException;
    }
}
