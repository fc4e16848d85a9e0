package io.gpuaas.local.kueue;

import java.util.List;
import java.util.Optional;

/**
 * A ClusterQueue's quota: its cohort and its (flavor, resource) quotas in the order Kueue tries the flavors.
 *
 * @param name     ClusterQueue name
 * @param cohort   cohort name, if any
 * @param quotas   quotas in flavor order
 * @param stopped  {@code stopPolicy} other than None: admits nothing new
 * @param preemption {@code spec.preemption}
 */
public record QueueQuota(
        String name, Optional<String> cohort, List<FlavorQuota> quotas, boolean stopped, PreemptionPolicy preemption) {

    public QueueQuota {
        quotas = List.copyOf(quotas);
        preemption = preemption == null ? PreemptionPolicy.NONE : preemption;
    }

    /** A queue that never preempts (Kueue's default policy). */
    public QueueQuota(String name, Optional<String> cohort, List<FlavorQuota> quotas, boolean stopped) {
        this(name, cohort, quotas, stopped, PreemptionPolicy.NONE);
    }
}
