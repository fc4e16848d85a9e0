package io.gpuaas.reclaim.model;

/**
 * What the windows of all devices of one workload say together.
 *
 * @param idle           every device idle
 * @param devices        devices attributed to the workload
 * @param coverage       samples seen / samples expected, over all devices
 * @param maxUtilization highest utilization across the devices' idle runs
 * @param windowStart    first instant of the judged window
 * @param idleMillis     how long the whole workload has been idle (the least idle device)
 * @param reason         the reason of the first device that is not idle, or IDLE
 */
public record WorkloadVerdict(
        boolean idle,
        int devices,
        double coverage,
        double maxUtilization,
        long windowStart,
        long idleMillis,
        DeviceVerdict.Reason reason) {

    public static WorkloadVerdict noDevices(long now) {
        return new WorkloadVerdict(false, 0, 0.0, 0.0, now, 0, DeviceVerdict.Reason.LOW_COVERAGE);
    }
}
