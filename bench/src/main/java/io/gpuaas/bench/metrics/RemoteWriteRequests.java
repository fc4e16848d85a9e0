package io.gpuaas.bench.metrics;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.xerial.snappy.Snappy;

/**
 * The remote-write requests a Prometheus scraping a simulated fleet would send: every exporter series of each node
 * plus Prometheus' own per-target series ({@code up}, {@code scrape_*}), each labelled with {@code instance},
 * {@code job} and a relabelled {@code node}, labels sorted, a fleet scrape's samples sharing its timestamp, cut into
 * requests of at most {@code samplesPerSend} series in scrape order (one shard's view), protobuf-encoded with
 * protobuf-java and snappy block-compressed. Built once; every round sends the same bytes.
 */
final class RemoteWriteRequests {

    private static final String[] SCRAPE_SERIES = {
        "up",
        "scrape_duration_seconds",
        "scrape_samples_scraped",
        "scrape_samples_post_metric_relabeling",
        "scrape_series_added"
    };

    private final List<byte[]> bodies = new ArrayList<>();
    private long compressedBytes;
    private long rawBytes;
    private long series;

    private RemoteWriteRequests() {}

    static RemoteWriteRequests of(FleetScrape fleet, int scrapes, int samplesPerSend) {
        RemoteWriteRequests requests = new RemoteWriteRequests();
        List<byte[]> batch = new ArrayList<>();
        for (int s = 0; s < scrapes; s++) {
            long timestamp = 1_800_000_000_000L + s * 5_000L;
            for (int n = 0; n < fleet.nodes(); n++) {
                Map<String, String> target = Map.of(
                        "instance", "10.0." + n / 250 + "." + n % 250 + ":9400",
                        "job", "dcgm-exporter",
                        "node", "gpu-node-" + n);
                for (byte[] series : nodeSeries(new String(fleet.node(n), StandardCharsets.UTF_8), target, timestamp)) {
                    batch.add(series);
                    if (batch.size() == samplesPerSend) {
                        requests.add(batch);
                        batch.clear();
                    }
                }
            }
        }
        if (!batch.isEmpty()) {
            requests.add(batch);
        }
        return requests;
    }

    private void add(List<byte[]> batch) {
        byte[] raw = message(out -> {
            for (byte[] s : batch) {
                out.writeByteArray(1, s);
            }
        });
        try {
            byte[] body = Snappy.compress(raw);
            bodies.add(body);
            compressedBytes += body.length;
            rawBytes += raw.length;
            series += batch.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The encoded TimeSeries of one node's scrape: one per sample line, then Prometheus' per-target series. */
    private static List<byte[]> nodeSeries(String text, Map<String, String> target, long timestamp) {
        List<byte[]> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                Map<String, String> labels = new TreeMap<>(target);
                int end = ExpositionLine.labels(trimmed, labels);
                out.add(series(labels, ExpositionLine.value(trimmed, end), timestamp));
            }
        }
        for (String name : SCRAPE_SERIES) {
            Map<String, String> labels = new TreeMap<>(target);
            labels.put("__name__", name);
            out.add(series(labels, 1, timestamp));
        }
        return out;
    }

    private static byte[] series(Map<String, String> sortedLabels, double value, long timestamp) {
        return message(out -> {
            for (Map.Entry<String, String> label : sortedLabels.entrySet()) {
                out.writeByteArray(1, message(l -> {
                    l.writeString(1, label.getKey());
                    l.writeString(2, label.getValue());
                }));
            }
            out.writeByteArray(2, message(s -> {
                s.writeDouble(1, value);
                s.writeInt64(2, timestamp);
            }));
        });
    }

    private static byte[] message(Fields fields) {
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
    private interface Fields {
        void write(CodedOutputStream out) throws IOException;
    }

    List<byte[]> bodies() {
        return bodies;
    }

    long compressedBytes() {
        return compressedBytes;
    }

    long rawBytes() {
        return rawBytes;
    }

    long series() {
        return series;
    }
}
