package io.gpuaas.events.gpu;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Writes a GpuScrape as {@code Json.mapper()} writes it (component order, ISO instants, nulls left out, Jackson's
 * string escaping) straight into bytes, without Jackson's reflection. Non-finite doubles are left out as well (a
 * missing reading, where Jackson would write a string the schema rejects). Its buffer is reused from record to
 * record, and the last instant's text is kept (formatting it through {@code DateTimeFormatter} cost more than a
 * device's values). Not thread-safe.
 */
final class GpuScrapeJsonWriter {

    private static final byte[] TIME = name("time");
    private static final byte[] NODE = name("node");
    private static final byte[] TARGET = name("target");
    private static final byte[] DEVICES = name("devices");
    private static final byte[] UUID = name("uuid");
    private static final byte[] GPU_INDEX = name("gpuIndex");
    private static final byte[] MODEL_NAME = name("modelName");
    private static final byte[] GPU_INSTANCE_ID = name("gpuInstanceId");
    private static final byte[] MIG_PROFILE = name("migProfile");
    private static final byte[] HOSTNAME_LABEL = name("hostnameLabel");
    private static final byte[] NAMESPACE = name("namespace");
    private static final byte[] POD = name("pod");
    private static final byte[] CONTAINER = name("container");
    private static final byte[] UTILIZATION = name("utilization");
    private static final byte[] UTILIZATION_SOURCE = name("utilizationSource");
    private static final byte[] MEMORY_USED = name("memoryUsedMiB");
    private static final byte[] MEMORY_FREE = name("memoryFreeMiB");
    private static final byte[] POWER = name("powerWatts");
    private static final byte[] DECODER = name("decoderUtilPercent");
    private static final byte[] ENCODER = name("encoderUtilPercent");

    private final JsonOut out = new JsonOut();
    /** Whether the object being written has a field yet: the next one needs a comma when it has. */
    private boolean hasField;

    private Instant lastTime;
    private byte[] lastTimeText;

    /** The JSON body of {@code scrape}, a fresh array of exactly its length. */
    byte[] write(GpuScrape scrape) {
        out.reset();
        out.put((byte) '{');
        hasField = false;
        if (scrape.time() != null) {
            field(TIME);
            out.put(timeText(scrape.time()));
        }
        string(NODE, scrape.node());
        string(TARGET, scrape.target());
        field(DEVICES);
        out.put((byte) '[');
        for (int i = 0; i < scrape.devices().size(); i++) {
            if (i > 0) {
                out.put((byte) ',');
            }
            device(scrape.devices().get(i));
        }
        out.put((byte) ']');
        out.put((byte) '}');
        return out.toByteArray();
    }

    private void device(GpuScrape.Device d) {
        out.put((byte) '{');
        hasField = false;
        string(UUID, d.uuid());
        if (d.gpuIndex() != null) {
            field(GPU_INDEX);
            out.integer(d.gpuIndex());
        }
        string(MODEL_NAME, d.modelName());
        string(GPU_INSTANCE_ID, d.gpuInstanceId());
        string(MIG_PROFILE, d.migProfile());
        string(HOSTNAME_LABEL, d.hostnameLabel());
        string(NAMESPACE, d.namespace());
        string(POD, d.pod());
        string(CONTAINER, d.container());
        number(UTILIZATION, d.utilization());
        string(UTILIZATION_SOURCE, d.utilizationSource());
        number(MEMORY_USED, d.memoryUsedMiB());
        number(MEMORY_FREE, d.memoryFreeMiB());
        number(POWER, d.powerWatts());
        number(DECODER, d.decoderUtilPercent());
        number(ENCODER, d.encoderUtilPercent());
        out.put((byte) '}');
    }

    private byte[] timeText(Instant time) {
        if (!time.equals(lastTime)) {
            lastTimeText = ('"' + time.toString() + '"').getBytes(StandardCharsets.US_ASCII);
            lastTime = time;
        }
        return lastTimeText;
    }

    /** {@code "name":} */
    private static byte[] name(String name) {
        return ('"' + name + "\":").getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes a field name, after the comma that separates it from the previous field of the same object. */
    private void field(byte[] name) {
        if (hasField) {
            out.put((byte) ',');
        }
        hasField = true;
        out.put(name);
    }

    private void string(byte[] name, String value) {
        if (value != null) {
            field(name);
            out.string(value);
        }
    }

    private void number(byte[] name, Double value) {
        if (value != null && Double.isFinite(value)) {
            field(name);
            out.number(value);
        }
    }
}
