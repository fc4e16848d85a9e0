package io.gpuaas.metrics.dcgm;

/**
 * How a device's raw DCGM values become the fields of a {@code GpuScrape.Device}, the same for a scraped exporter
 * ({@link DeviceTable}) and a remote-write request: a value the contract cannot carry is reported as missing, so the
 * scrape stays valid and its readers never dead-letter it.
 */
public final class DeviceValues {

    private DeviceValues() {}

    /** A busy ratio: negative (the exporter could not read it) is missing, above 1 is clamped to 1. */
    public static Double ratio(double value) {
        return value < 0 ? null : Math.min(value, 1.0);
    }

    /** Decoder or encoder percent: negative (not read) is missing, above 100 is clamped to 100. */
    public static Double percent(boolean present, double value) {
        return present && value >= 0 ? Math.min(value, 100.0) : null;
    }

    /** Memory and power: never negative; an exporter reports a negative or NaN value for a field it could not read. */
    public static Double nonNegative(boolean present, double value) {
        return present && value >= 0 ? value : null;
    }

    /** The {@code gpu} label as an index, or null when absent or not a number. */
    public static Integer gpuIndex(String gpu) {
        if (gpu == null) {
            return null;
        }
        try {
            return Integer.valueOf(gpu);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
