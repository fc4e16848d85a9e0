package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import java.util.List;

/** What {@link WorkerScaler} did with one request. */
public sealed interface ScaleOutcome {

    /**
     * The change is on the object.
     *
     * @param alreadyApplied the object already carried this action (a retry after a restart): nothing was written
     */
    record Applied(List<ScaledGroup> groups, String action, boolean alreadyApplied) implements ScaleOutcome {}

    /** Deliberately left alone, with a machine-readable reason. */
    record Skipped(String reason, String message) implements ScaleOutcome {}

    /** Could not be done; nothing was half-applied. */
    record Failed(String reason, String message) implements ScaleOutcome {}
}
