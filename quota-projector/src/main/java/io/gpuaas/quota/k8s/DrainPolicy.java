package io.gpuaas.quota.k8s;

import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * What to do with a tenant ClusterQueue whose bookings have all ended. Without Workloads holding quota in it, it
 * is deleted at once. Otherwise it is first stopped with {@code stopPolicy: HoldAndDrain} and zero quota (so the
 * cohort gets the capacity back at the boundary, and Kueue evicts what still runs); it is deleted once no Workload
 * holds quota in it, or when the drain timeout since the drain mark has passed, whichever comes first.
 */
public final class DrainPolicy {

    /** Annotation: when draining of a ClusterQueue began; the drain timeout counts from here. */
    public static final String DRAIN_STARTED = "gpuaas.io/drain-started";

    /** The decision for one ClusterQueue. */
    public sealed interface Decision permits MarkDraining, Delete, Wait {}

    /** Stop the queue and remember since when. */
    public record MarkDraining(Instant since) implements Decision {}

    /** Delete the queue; {@code reason} is {@code drained} or {@code timeout}. */
    public record Delete(String reason) implements Decision {}

    /** Look again at {@code until} at the latest (a Workload change may bring it earlier). */
    public record Wait(Instant until) implements Decision {}

    private final Duration timeout;

    public DrainPolicy(Duration timeout) {
        this.timeout = timeout;
    }

    public Decision decide(ClusterQueue clusterQueue, Instant now, int workloadsHoldingQuota) {
        if (workloadsHoldingQuota == 0) {
            // Nothing to drain: deleting at once spares a write at every ending boundary.
            return new Delete("drained");
        }
        Instant since = drainStarted(clusterQueue);
        if (since == null || !stopped(clusterQueue)) {
            return new MarkDraining(since == null ? now : since);
        }
        Instant deadline = since.plus(timeout);
        return now.isBefore(deadline) ? new Wait(deadline) : new Delete("timeout");
    }

    private static boolean stopped(ClusterQueue clusterQueue) {
        return clusterQueue.getSpec() != null
                && KueueManifests.HOLD_AND_DRAIN.equals(clusterQueue.getSpec().getStopPolicy())
                && NominalQuota.of(clusterQueue).values().stream().allMatch(q -> q.compareTo(BigDecimal.ZERO) == 0);
    }

    private static Instant drainStarted(ClusterQueue clusterQueue) {
        String mark = Ownership.annotation(clusterQueue, DRAIN_STARTED);
        try {
            return mark == null ? null : Instant.parse(mark);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
