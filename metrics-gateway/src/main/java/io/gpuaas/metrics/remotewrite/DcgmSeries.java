package io.gpuaas.metrics.remotewrite;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The dcgm-exporter series a GpuScrape is built from, matched by metric name ignoring case (so the lower-case names
 * of some exporter builds and the 1.x names of old-namespace deployments map onto the same value), with the unit
 * conversion to the contract's: the same table as the text parser's, for the same exporters seen through Prometheus.
 */
enum DcgmSeries {
    /** Graphics engine active ratio 0..1; the preferred utilization signal, also reported per MIG instance. */
    GR_ENGINE_ACTIVE(1.0, "DCGM_FI_PROF_GR_ENGINE_ACTIVE"),
    /** GPU utilization in percent; not reported for MIG instances. */
    GPU_UTIL(0.01, "DCGM_FI_DEV_GPU_UTIL", "DCGM_GPU_UTILIZATION"),
    FB_USED(1.0, "DCGM_FI_DEV_FB_USED", "DCGM_FB_USED"),
    FB_FREE(1.0, "DCGM_FI_DEV_FB_FREE", "DCGM_FB_FREE"),
    POWER_USAGE(1.0, "DCGM_FI_DEV_POWER_USAGE", "DCGM_POWER_USAGE");

    static final int COUNT = values().length;

    /** Multiplier from the exporter's unit to the contract's (percent to ratio for GPU_UTIL). */
    final double scale;

    private final byte[][] names;

    DcgmSeries(double scale, String... names) {
        this.scale = scale;
        this.names = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            this.names[i] = upper(names[i]);
        }
    }

    /** The series whose {@code __name__} is label {@code nameLabel} of {@code series}, or null for any other. */
    static DcgmSeries of(Series series, int nameLabel) {
        for (DcgmSeries candidate : values()) {
            for (byte[] name : candidate.names) {
                if (series.valueEqualsIgnoreCase(nameLabel, name)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    static byte[] upper(String name) {
        return name.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    }
}
