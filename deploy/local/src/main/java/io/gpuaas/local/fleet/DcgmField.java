package io.gpuaas.local.fleet;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One metric of dcgm-exporter's default counter set, with the HELP text and TYPE the exporter prints. Fields the
 * driver does not support on MIG instances (GPU_UTIL and the other whole-device utilizations) are left out for them,
 * as on a real node.
 *
 * @param name  metric name
 * @param type  {@code gauge} or {@code counter}
 * @param help  HELP text
 * @param onMig whether MIG instances report it
 * @param value renders the sample value of one device
 */
record DcgmField(String name, String type, String help, boolean onMig, Function<DeviceReading, String> value) {

    static final List<DcgmField> DEFAULT_COUNTERS = List.of(
            gauge("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", true, r -> integer(r.smClockMhz())),
            gauge("DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", true, r -> integer(r.memClockMhz())),
            gauge("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", true, r -> integer(r.temperatureC())),
            gauge("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", true, r -> decimal(r.powerW())),
            counter(
                    "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                    "Total energy consumption since boot (in mJ).",
                    true,
                    r -> integer(r.energyMj())),
            counter("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "Total number of PCIe retries.", true, r -> "0"),
            gauge("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", false, r -> integer(r.utilization() * 100)),
            gauge("DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", false, r -> integer(r.utilization() * 40)),
            gauge("DCGM_FI_DEV_ENC_UTIL", "Encoder utilization (in %).", false, r -> "0"),
            gauge("DCGM_FI_DEV_DEC_UTIL", "Decoder utilization (in %).", false, r -> integer(r.decoderPercent())),
            gauge("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", true, r -> "0"),
            gauge("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", true, r -> integer(r.memoryFreeMib())),
            gauge("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", true, r -> integer(r.memoryUsedMib())),
            counter(
                    "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
                    "Total number of NVLink bandwidth counters for all lanes",
                    false,
                    r -> "0"),
            gauge("DCGM_FI_DEV_VGPU_LICENSE_STATUS", "vGPU License status", false, r -> "0"),
            gauge(
                    "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                    "Ratio of time the graphics engine is active.",
                    true,
                    r -> ratio(r.utilization())),
            gauge(
                    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
                    "Ratio of cycles the tensor (HMMA) pipe is active.",
                    true,
                    r -> ratio(r.utilization() * 0.55)),
            gauge(
                    "DCGM_FI_PROF_DRAM_ACTIVE",
                    "Ratio of cycles the device memory interface is active sending or receiving data.",
                    true,
                    r -> ratio(r.utilization() * 0.4)));

    private static DcgmField gauge(String name, String help, boolean onMig, Function<DeviceReading, String> value) {
        return new DcgmField(name, "gauge", help, onMig, value);
    }

    private static DcgmField counter(String name, String help, boolean onMig, Function<DeviceReading, String> value) {
        return new DcgmField(name, "counter", help, onMig, value);
    }

    private static String integer(double value) {
        return Long.toString(Math.round(value));
    }

    private static String decimal(double value) {
        return String.format(Locale.ROOT, "%.6f", value);
    }

    private static String ratio(double value) {
        return String.format(Locale.ROOT, "%.6f", Math.max(0, Math.min(1, value)));
    }
}
