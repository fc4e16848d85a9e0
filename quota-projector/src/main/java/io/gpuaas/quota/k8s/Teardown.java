package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.FlavorResource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to an owned object the plan no longer wants: a ClusterQueue drains ({@link DrainPolicy}), its
 * LocalQueues wait for it to be gone, HardwareProfiles go at once, the Cohort stays.
 */
final class Teardown {

    private static final Logger LOG = LoggerFactory.getLogger(Teardown.class);

    private final ClusterCache cache;
    private final ClusterQueueWriter writer;
    private final KueueManifests manifests;
    private final DrainPolicy drain;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final BiConsumer<ObjectRef, Long> revisitAfterMillis;

    Teardown(ClusterCache cache, ClusterQueueWriter writer, KueueManifests manifests, DrainPolicy drain, Clock clock,
             QuotaProjectorMetrics metrics, BiConsumer<ObjectRef, Long> revisitAfterMillis) {
        this.cache = cache;
        this.writer = writer;
        this.manifests = manifests;
        this.drain = drain;
        this.clock = clock;
        this.metrics = metrics;
        this.revisitAfterMillis = revisitAfterMillis;
    }

    void retire(ObjectRef ref, GenericKubernetesResource actual, SortedMap<FlavorResource, Long> cells) {
        switch (ref.kind()) {
            case CLUSTER_QUEUE -> drain(ref, actual, cells);
            case LOCAL_QUEUE -> deleteLocalQueueUnlessItsQueueDrains(ref, actual);
            case HARDWARE_PROFILE -> metrics.write(ref.kind(), writer.delete(ref, actual));
            default -> LOG.debug("{} is no longer desired; left alone", ref);
        }
    }

    private void drain(ObjectRef ref, GenericKubernetesResource clusterQueue, SortedMap<FlavorResource, Long> cells) {
        Instant now = clock.instant();
        int holding = (int) cache.workloads(ClusterCache.BY_CLUSTER_QUEUE, ref.name()).stream()
                .filter(w -> ref.name().equals(Workloads.admittedClusterQueue(w))).count();
        switch (drain.decide(clusterQueue, now, holding)) {
            case DrainPolicy.MarkDraining mark -> {
                String tenant = Ownership.label(clusterQueue, Labels.TENANT);
                GenericKubernetesResource stopped = manifests.drainingClusterQueue(tenant, cells);
                stopped.getMetadata().setAnnotations(Map.of(Labels.DRAIN_STARTED, mark.since().toString()));
                metrics.write(ref.kind(), writer.apply(ref, stopped));
                LOG.info("{} has no active booking: draining since {}", ref, mark.since());
            }
            case DrainPolicy.Delete delete -> {
                metrics.write(ref.kind(), writer.delete(ref, clusterQueue));
                LOG.info("{} deleted ({})", ref, delete.reason());
            }
            case DrainPolicy.Wait wait -> revisitAfterMillis.accept(ref, Math.max(0, Duration.between(now, wait.until()).toMillis()));
        }
    }

    private void deleteLocalQueueUnlessItsQueueDrains(ObjectRef ref, GenericKubernetesResource localQueue) {
        String target = QueueStates.target(localQueue);
        boolean draining = target != null && cache.get(new ObjectRef(Kind.CLUSTER_QUEUE, null, target))
                .filter(Ownership::owned).isPresent();
        // Workloads keep their LocalQueue while their ClusterQueue drains; the queue's deletion queues this again.
        if (!draining) {
            metrics.write(ref.kind(), writer.delete(ref, localQueue));
        }
    }
}
