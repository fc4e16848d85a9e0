package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import java.util.List;

/**
 * The outcome of a desired-state function: the groups it changes (with their values before and after) and the
 * state to remember on the object. The object itself was changed in place.
 */
public record ScalePlan(List<ScaledGroup> groups, ReclaimedState state, String action) {

    public boolean changesNothing() {
        return groups.isEmpty();
    }
}
