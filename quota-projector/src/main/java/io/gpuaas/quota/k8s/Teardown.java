package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpuaas.events.Labels;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.quota.k8s.ClusterQueueWriter.Outcome;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.FlavorResource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to an owned object the plan no longer wants: a ClusterQueue drains ({@link DrainPolicy}), its
 * LocalQueues wait for it to be gone, HardwareProfiles go at once, the Cohort stays.
 */
final class Teardown {

    private static final Logger LOG = LoggerFactory.getLogger(Teardown.class);

    /** What one step did, and when to look at the object again (a drain waiting for its Workloads). */
    record Step(Outcome outcome, Optional<Duration> revisitAfter) {
        static Step done(Outcome outcome) {
            return new Step(outcome, Optional.empty());
        }
    }

    private final ClusterCache cache;
    private final ClusterQueueWriter writer;
    private final DrainPolicy drain;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;

    Teardown(
            ClusterCache cache,
            ClusterQueueWriter writer,
            DrainPolicy drain,
            Clock clock,
            QuotaProjectorMetrics metrics) {
        this.cache = cache;
        this.writer = writer;
        this.drain = drain;
        this.clock = clock;
        this.metrics = metrics;
    }

    Step retire(ObjectRef ref, HasMetadata actual, SortedMap<FlavorResource, Long> cells, KueueManifests manifests) {
        Step step =
                switch (ref.kind()) {
                    case CLUSTER_QUEUE -> drain(ref, (ClusterQueue) actual, cells, manifests);
                    case LOCAL_QUEUE -> deleteLocalQueueUnlessItsQueueDrains(ref, (LocalQueue) actual);
                    case HARDWARE_PROFILE -> Step.done(writer.delete(ref, actual));
                    default -> {
                        LOG.debug("{} is no longer desired; left alone", ref);
                        yield Step.done(Outcome.UNCHANGED);
                    }
                };
        metrics.write(ref.kind(), step.outcome());
        return step;
    }

    private Step drain(
            ObjectRef ref, ClusterQueue clusterQueue, SortedMap<FlavorResource, Long> cells, KueueManifests manifests) {
        Instant now = clock.instant();
        int holding = (int) cache.workloads(ClusterCache.BY_CLUSTER_QUEUE, ref.name()).stream()
                .filter(w -> ref.name().equals(Workloads.admittedClusterQueue(w)))
                .count();
        return switch (drain.decide(clusterQueue, now, holding)) {
            case DrainPolicy.MarkDraining mark -> {
                String tenant = Ownership.label(clusterQueue, Labels.TENANT);
                HasMetadata stopped = manifests.drainingClusterQueue(ref.name(), tenant, cells);
                stopped.getMetadata()
                        .setAnnotations(
                                Map.of(DrainPolicy.DRAIN_STARTED, mark.since().toString()));
                Outcome outcome = writer.apply(ref, stopped);
                LOG.info("{} has no active booking: draining since {}", ref, mark.since());
                yield Step.done(outcome);
            }
            case DrainPolicy.Delete delete -> {
                Outcome outcome = writer.delete(ref, clusterQueue);
                LOG.info("{} deleted ({})", ref, delete.reason());
                yield Step.done(outcome);
            }
            case DrainPolicy.Wait wait ->
                new Step(
                        Outcome.UNCHANGED,
                        Optional.of(
                                Duration.between(now, wait.until()).isNegative()
                                        ? Duration.ZERO
                                        : Duration.between(now, wait.until())));
        };
    }

    private Step deleteLocalQueueUnlessItsQueueDrains(ObjectRef ref, LocalQueue localQueue) {
        String target = QueueStates.target(localQueue);
        boolean draining = target != null
                && cache.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, target))
                        .filter(Ownership::owned)
                        .isPresent();
        // Workloads keep their LocalQueue while their ClusterQueue drains; the queue's deletion queues this again.
        return Step.done(draining ? Outcome.UNCHANGED : writer.delete(ref, localQueue));
    }
}
