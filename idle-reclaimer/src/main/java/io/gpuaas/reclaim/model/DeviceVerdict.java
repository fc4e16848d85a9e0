package io.gpuaas.reclaim.model;

/**
 * What one device's window says at one instant.
 *
 * @param reason         why the device is or is not idle
 * @param samples        slots of the window that held a sample
 * @param slots          slots in the window
 * @param maxUtilization highest utilization since the last busy sample (at most the threshold when idle)
 * @param windowStart    first instant of the judged window
 * @param idleMillis     time since the first idle sample after the last busy one
 */
public record DeviceVerdict(
        Reason reason, int samples, int slots, double maxUtilization, long windowStart, long idleMillis) {

    public enum Reason {
        /** Every sample of the window at or under the threshold, with enough of them, after the warm-up. */
        IDLE,
        /** A sample over the threshold, or without a value, inside the window. */
        BUSY,
        /** Too few samples in the window: missing, stale or a device too new to judge. */
        LOW_COVERAGE,
        /** The window would reach back into the warm-up grace. */
        WARM_UP
    }

    public boolean idle() {
        return reason == Reason.IDLE;
    }

    public double coverage() {
        return (double) samples / slots;
    }
}
