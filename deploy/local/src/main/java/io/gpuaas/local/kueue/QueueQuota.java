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
 */
public record QueueQuota(String name, Optional<String> cohort, List<FlavorQuota> quotas, boolean stopped) {

    public QueueQuota {
        quotas = List.copyOf(quotas);
    }
}
