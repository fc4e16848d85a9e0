package io.gpuaas.bench.reclaim;

import java.util.ArrayList;
import java.util.List;

/**
 * The idleness policy computed straight from the trace, without any of the reclaimer's code: a pod is reclaimed at
 * the first sample at or under the threshold whose window of {@code window} one-minute slots (ending with that
 * sample's minute) holds no sample over the threshold and at least 90% of its slots with a sample; it stays
 * reclaimed until its next sample over the threshold (the request that wakes a serverless predictor).
 */
final class ReplayOracle {

    /** A reclaim of one pod: at which minute it happened and the minute demand came back (exclusive end). */
    record Reclaim(String pod, int atMinute, int untilMinute) {
        int minutes() {
            return untilMinute - atMinute;
        }
    }

    private ReplayOracle() {}

    static List<Reclaim> reclaims(DutyCycleTrace trace, int windowMinutes, double threshold, double coverage) {
        int required = (int) Math.ceil(coverage * windowMinutes - 1e-9);
        List<Reclaim> out = new ArrayList<>();
        for (DutyCycleTrace.Pod pod : trace.pods()) {
            int[] m = pod.minutes();
            double[] u = pod.utilization();
            Integer reclaimedAt = null;
            for (int i = 0; i < m.length; i++) {
                boolean busy = u[i] > threshold;
                if (reclaimedAt != null) {
                    if (busy) {
                        out.add(new Reclaim(pod.id(), reclaimedAt, m[i]));
                        reclaimedAt = null;
                    }
                    continue;
                }
                if (!busy && idleWindowEndsAt(m, u, i, windowMinutes, threshold, required)) {
                    reclaimedAt = m[i];
                }
            }
            if (reclaimedAt != null) {
                out.add(new Reclaim(pod.id(), reclaimedAt, m[m.length - 1] + 1));
            }
        }
        return out;
    }

    private static boolean idleWindowEndsAt(int[] m, double[] u, int i, int window, double threshold, int required) {
        int first = m[i] - window + 1;
        int count = 0;
        for (int j = i; j >= 0 && m[j] >= first; j--) {
            if (u[j] > threshold) {
                return false;
            }
            count++;
        }
        return count >= required;
    }

    /** When demand returns after a reclaim at {@code atMinute}: the pod's next busy sample, or its end. */
    static int demandReturns(DutyCycleTrace.Pod pod, int atMinute, double threshold) {
        int[] m = pod.minutes();
        for (int i = 0; i < m.length; i++) {
            if (m[i] > atMinute && pod.utilization()[i] > threshold) {
                return m[i];
            }
        }
        return m[m.length - 1] + 1;
    }
}
