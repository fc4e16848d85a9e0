package io.gpuaas.events.pool;

/**
 * A pool's bounds on "keep it" answers to a reclaim warning ({@code ReclaimPending}): one answer keeps a booking's
 * workload at most {@code maxHoursPerAnswer}, and all the answers for one booking's workloads together at most
 * {@code maxHoursPerDay} per UTC day. Absent from a pool (null): {@link #DEFAULT}.
 *
 * @param maxHoursPerAnswer the most hours one answer may ask for; at least 1
 * @param maxHoursPerDay    the most hours a booking's workloads may be kept on one UTC day, all answers together; at
 *                          least 1
 */
public record PoolKeep(int maxHoursPerAnswer, int maxHoursPerDay) {

    /** 24 h per answer and 24 h per booking and day: every button of the dashboard on a booking's first answer. */
    public static final PoolKeep DEFAULT = new PoolKeep(24, 24);

    public PoolKeep {
        if (maxHoursPerAnswer < 1 || maxHoursPerDay < 1) {
            throw new IllegalArgumentException("keep.maxHoursPerAnswer and keep.maxHoursPerDay must be at least 1");
        }
    }
}
