package io.gpuaas.metrics.remotewrite;

import static io.gpuaas.metrics.remotewrite.WireCursor.FIXED64;
import static io.gpuaas.metrics.remotewrite.WireCursor.LENGTH_DELIMITED;
import static io.gpuaas.metrics.remotewrite.WireCursor.VARINT;
import static io.gpuaas.metrics.remotewrite.WireCursor.tag;

/**
 * Reads a decompressed remote-write 1.0 {@code prometheus.WriteRequest} and hands each of its time series to a
 * handler, without generated classes and without a String per label:
 *
 * <pre>
 * WriteRequest { repeated TimeSeries timeseries = 1; repeated MetricMetadata metadata = 3; }
 * TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; exemplars = 3; histograms = 4; }
 * Label        { string name = 1; string value = 2; }
 * Sample       { double value = 1; int64 timestamp = 2; }   // milliseconds since the epoch
 * </pre>
 *
 * Anything else (metadata, exemplars, native histograms, fields a later version adds, a known field number with an
 * unexpected wire type) is skipped by its wire type, as protobuf parsers skip unknown fields. Missing scalars take
 * proto3's defaults (0). A body that does not follow the wire format is a {@link RemoteWriteRejection}. Stateless.
 */
public final class WriteRequestReader {

    private static final int TIMESERIES = tag(1, LENGTH_DELIMITED);
    private static final int LABELS = tag(1, LENGTH_DELIMITED);
    private static final int SAMPLES = tag(2, LENGTH_DELIMITED);
    private static final int LABEL_NAME = tag(1, LENGTH_DELIMITED);
    private static final int LABEL_VALUE = tag(2, LENGTH_DELIMITED);
    private static final int SAMPLE_VALUE = tag(1, FIXED64);
    private static final int SAMPLE_TIMESTAMP = tag(2, VARINT);

    /** Receives the series of a request in wire order. */
    @FunctionalInterface
    public interface SeriesHandler {
        /** {@code series} is reused for the next one: copy what is kept. */
        void series(Series series);
    }

    private WriteRequestReader() {}

    /** Reads {@code request[0, length)}; returns the number of time series read. */
    public static int read(byte[] request, int length, SeriesHandler handler) {
        WireCursor cursor = new WireCursor(request, 0);
        Series series = new Series();
        int count = 0;
        while (cursor.position() < length) {
            int tag = cursor.tag(length);
            if (tag == TIMESERIES) {
                int end = cursor.lengthDelimitedEnd(length);
                series.reset(request);
                readSeries(cursor, end, series);
                handler.series(series);
                count++;
            } else {
                cursor.skip(tag, length);
            }
        }
        return count;
    }

    private static void readSeries(WireCursor cursor, int end, Series series) {
        while (cursor.position() < end) {
            int tag = cursor.tag(end);
            if (tag == LABELS) {
                readLabel(cursor, cursor.lengthDelimitedEnd(end), series);
            } else if (tag == SAMPLES) {
                readSample(cursor, cursor.lengthDelimitedEnd(end), series);
            } else {
                cursor.skip(tag, end);
            }
        }
    }

    private static void readLabel(WireCursor cursor, int end, Series series) {
        int nameFrom = 0;
        int nameTo = 0;
        int valueFrom = 0;
        int valueTo = 0;
        while (cursor.position() < end) {
            int tag = cursor.tag(end);
            if (tag == LABEL_NAME) {
                nameTo = cursor.lengthDelimitedEnd(end);
                nameFrom = cursor.position();
                cursor.jump(nameTo);
            } else if (tag == LABEL_VALUE) {
                valueTo = cursor.lengthDelimitedEnd(end);
                valueFrom = cursor.position();
                cursor.jump(valueTo);
            } else {
                cursor.skip(tag, end);
            }
        }
        series.addLabel(nameFrom, nameTo, valueFrom, valueTo);
    }

    private static void readSample(WireCursor cursor, int end, Series series) {
        double value = 0;
        long timestamp = 0;
        while (cursor.position() < end) {
            int tag = cursor.tag(end);
            if (tag == SAMPLE_VALUE) {
                value = cursor.fixed64Double(end);
            } else if (tag == SAMPLE_TIMESTAMP) {
                timestamp = cursor.varint(end);
            } else {
                cursor.skip(tag, end);
            }
        }
        series.addSample(value, timestamp);
    }
}
