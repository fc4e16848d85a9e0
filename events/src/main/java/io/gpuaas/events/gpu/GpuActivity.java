package io.gpuaas.events.gpu;

/**
 * The one rule for whether a device's reading is busy, shared by every reader of {@code gpuaas.gpu-samples}
 * (idle-reclaimer's windows, metrics-gateway's busy/idle split): busy when its utilization is over the idle threshold,
 * or when its video decoder or encoder did any work. Video work runs on NVDEC/NVENC, not on the graphics engine, so a
 * GPU busy only decoding reads an engine activity near 0 (a real RTX read 46 % decoder utilization beside it).
 *
 * <p>What a missing utilization means is the reader's choice: the reclaimer counts it as doubt (busy), the ledger
 * does not charge the reading at all.
 */
public final class GpuActivity {

    /**
     * The default idle threshold, a utilization ratio: a reading at or under it is idle. Read on a real H200, an empty
     * GPU or one whose process holds 40 GiB and runs nothing reads 0.0001–0.0004 engine activity, a live process
     * launching a steady stream of small kernels 0.043–0.046. 0.01 lies 25 times above the first and 4 times under the
     * second. The former default, 0.05, counted the live small-kernel process idle.
     */
    public static final double DEFAULT_IDLE_THRESHOLD = 0.01;

    /** {@link #DEFAULT_IDLE_THRESHOLD} as configuration text, for annotation defaults. */
    public static final String DEFAULT_IDLE_THRESHOLD_TEXT = "0.01";

    /**
     * Decoder or encoder utilization, in percent, above which a device is busy. NVML reports both as whole percent
     * and an unused engine reads exactly 0, so any reading is work.
     */
    public static final double MEDIA_BUSY_ABOVE_PERCENT = 0.0;

    private GpuActivity() {}

    /** Whether the video decoder or encoder of {@code device} did work (false when neither was read). */
    public static boolean mediaBusy(GpuScrape.Device device) {
        return mediaBusy(device.decoderUtilPercent(), device.encoderUtilPercent());
    }

    /** Whether a decoder or encoder reading (percent, null when not read) says the device worked. */
    public static boolean mediaBusy(Double decoderPercent, Double encoderPercent) {
        return over(decoderPercent) || over(encoderPercent);
    }

    /**
     * Whether a reading with a utilization is busy: over {@code threshold}, or with its decoder or encoder at work.
     *
     * @param utilization the reading's busy ratio, not null (a missing one is the reader's decision)
     */
    public static boolean busy(double utilization, boolean mediaBusy, double threshold) {
        return mediaBusy || utilization > threshold;
    }

    private static boolean over(Double percent) {
        return percent != null && percent > MEDIA_BUSY_ABOVE_PERCENT;
    }
}
