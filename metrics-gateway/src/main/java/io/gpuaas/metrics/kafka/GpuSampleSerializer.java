package io.gpuaas.metrics.kafka;

import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.EventTypes;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes GpuSamples exactly as the events module's CloudEvents serializer does (same {@code ce_*} headers, same
 * JSON as {@code Json.mapper()}: component order, ISO instants, nulls omitted — a test compares the bytes), but
 * without Jackson's reflection on the hot path: at 10,000 GPUs per interval it and SecureRandom ids (now gone from
 * every serializer, see {@link CloudEvents#newId()}) dominated
 * parse-and-publish (~10 µs per sample measured here against ~1 µs for this writer). Any other event type keeps
 * using the contract's serializer.
 */
public final class GpuSampleSerializer implements Serializer<GpuSampleEvent> {

    private static final byte[] SPEC_VERSION = "1.0".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TYPE = EventTypes.typeOf(GpuSample.class).getBytes(StandardCharsets.UTF_8);
    private static final byte[] JSON = CloudEvents.JSON.getBytes(StandardCharsets.UTF_8);

    private final byte[] source;

    /** @param source the {@code ce_source} of this process, e.g. {@code /gpuaas/metrics-gateway} */
    public GpuSampleSerializer(String source) {
        this.source = source.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] serialize(String topic, GpuSampleEvent data) {
        return data == null ? null : json((GpuSample) data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, GpuSampleEvent data) {
        if (data == null) {
            return null;
        }
        put(headers, CloudEvents.SPECVERSION, SPEC_VERSION);
        put(headers, CloudEvents.ID, CloudEvents.newId().getBytes(StandardCharsets.US_ASCII));
        put(headers, CloudEvents.SOURCE, source);
        put(headers, CloudEvents.TYPE, TYPE);
        put(headers, CloudEvents.TIME, Instant.now().toString().getBytes(StandardCharsets.US_ASCII));
        put(headers, CloudEvents.CONTENT_TYPE, JSON);
        return json((GpuSample) data);
    }

    private static void put(Headers headers, String name, byte[] value) {
        headers.remove(name);
        headers.add(name, value);
    }

    /** The JSON body alone, as {@code Json.mapper().writeValueAsBytes(sample)} would write it. */
    public static byte[] jsonOf(GpuSample sample) {
        return json(sample);
    }

    static byte[] json(GpuSample s) {
        JsonWriter w = new JsonWriter();
        w.field("time", s.time() == null ? null : s.time().toString());
        w.field("hostname", s.hostname());
        w.field("uuid", s.uuid());
        w.field("gpuIndex", s.gpuIndex());
        w.field("modelName", s.modelName());
        w.field("gpuInstanceId", s.gpuInstanceId());
        w.field("migProfile", s.migProfile());
        w.field("namespace", s.namespace());
        w.field("pod", s.pod());
        w.field("container", s.container());
        w.field("utilization", s.utilization());
        w.field("utilizationSource", s.utilizationSource());
        w.field("memoryUsedMiB", s.memoryUsedMiB());
        w.field("memoryFreeMiB", s.memoryFreeMiB());
        w.field("powerWatts", s.powerWatts());
        return w.bytes();
    }

    /** Compact JSON with Jackson's string escaping; null fields are left out as {@code NON_NULL} does. */
    private static final class JsonWriter {
        private final StringBuilder out = new StringBuilder(384).append('{');

        void field(String name, Object value) {
            if (value == null || value instanceof Double d && !Double.isFinite(d)) {
                return;
            }
            if (out.length() > 1) {
                out.append(',');
            }
            out.append('"').append(name).append("\":");
            if (value instanceof String text) {
                string(text);
            } else {
                out.append(value);
            }
        }

        private void string(String text) {
            out.append('"');
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04X", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }

        byte[] bytes() {
            return out.append('}').toString().getBytes(StandardCharsets.UTF_8);
        }
    }
}
