package io.gpuaas.metrics.dcgm;

import java.util.ArrayList;
import java.util.List;

/**
 * The dcgm-exporter counters a GpuScrape is built from, for the text parser and the remote-write receiver alike. Names
 * match case-insensitively, so the lower-case names some exporter builds emit and the 1.x names of old-namespace
 * deployments map onto the same field.
 */
public enum DcgmField {
    /** Graphics engine active ratio 0..1; the preferred utilization signal, also reported per MIG instance. */
    GR_ENGINE_ACTIVE(1.0, "DCGM_FI_PROF_GR_ENGINE_ACTIVE"),
    /** GPU utilization in percent; not reported for MIG instances. */
    GPU_UTIL(0.01, "DCGM_FI_DEV_GPU_UTIL", "DCGM_GPU_UTILIZATION"),
    FB_USED(1.0, "DCGM_FI_DEV_FB_USED", "DCGM_FB_USED"),
    FB_FREE(1.0, "DCGM_FI_DEV_FB_FREE", "DCGM_FB_FREE"),
    POWER_USAGE(1.0, "DCGM_FI_DEV_POWER_USAGE", "DCGM_POWER_USAGE"),
    /** Video decoder (NVDEC) utilization in percent; video work leaves engine activity near 0. */
    DEC_UTIL(1.0, "DCGM_FI_DEV_DEC_UTIL"),
    /** Video encoder (NVENC) utilization in percent. */
    ENC_UTIL(1.0, "DCGM_FI_DEV_ENC_UTIL");

    /** Multiplier from the exporter's unit to the GpuScrape unit (percent to ratio for GPU_UTIL). */
    public final double scale;

    private final byte[][] names;

    DcgmField(double scale, String... names) {
        this.scale = scale;
        this.names = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            this.names[i] = Ascii.bytes(names[i]);
        }
    }

    /** Names by length, so a name is compared with the one or two candidates of its length only. */
    private static final DcgmField[][] BY_LENGTH = byLength();

    private static DcgmField[][] byLength() {
        List<List<DcgmField>> lists = new ArrayList<>();
        for (DcgmField field : values()) {
            for (byte[] name : field.names) {
                while (lists.size() <= name.length) {
                    lists.add(new ArrayList<>());
                }
                lists.get(name.length).add(field);
            }
        }
        return lists.stream().map(list -> list.toArray(DcgmField[]::new)).toArray(DcgmField[][]::new);
    }

    /** The field named by {@code text[from, to)}, or null for a counter a GpuScrape does not carry. */
    public static DcgmField of(byte[] text, int from, int to) {
        int length = to - from;
        if (length >= BY_LENGTH.length) {
            return null;
        }
        for (DcgmField candidate : BY_LENGTH[length]) {
            for (byte[] name : candidate.names) {
                if (Ascii.equalsIgnoreCase(text, from, to, name)) {
                    return candidate;
                }
            }
        }
        return null;
    }
}
