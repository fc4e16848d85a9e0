package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.quota.model.FlavorResource;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DrainPolicyTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final KueueManifests MANIFESTS =
            new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false));
    private static final DrainPolicy POLICY = new DrainPolicy(Duration.ofMinutes(10));

    private static ClusterQueue draining(Instant since) {
        ClusterQueue cq = MANIFESTS.drainingClusterQueue(
                "team-a", new TreeMap<>(Map.of(new FlavorResource("h200", "nvidia.com/gpu"), 3L)));
        cq.getMetadata().setAnnotations(Map.of(DrainPolicy.DRAIN_STARTED, since.toString()));
        return cq;
    }

    @Test
    void shouldStopQueueFirstWhenItStillHoldsQuota() {
        ClusterQueue active = MANIFESTS.clusterQueue(
                "team-a", new TreeMap<>(Map.of(new FlavorResource("h200", "nvidia.com/gpu"), 3L)), "None");

        assertThat(POLICY.decide(active, NOW, 1)).isEqualTo(new DrainPolicy.MarkDraining(NOW));
    }

    @Test
    void shouldDeleteAtOnceWhenNoWorkloadHoldsQuota() {
        ClusterQueue active = MANIFESTS.clusterQueue(
                "team-a", new TreeMap<>(Map.of(new FlavorResource("h200", "nvidia.com/gpu"), 3L)), "None");

        assertThat(POLICY.decide(active, NOW, 0)).isEqualTo(new DrainPolicy.Delete("drained"));
        assertThat(POLICY.decide(draining(NOW.minusSeconds(5)), NOW, 0)).isEqualTo(new DrainPolicy.Delete("drained"));
    }

    @Test
    void shouldWaitUntilTimeoutThenDeleteWhenWorkloadsKeepRunning() {
        assertThat(POLICY.decide(draining(NOW.minusSeconds(60)), NOW, 2))
                .isEqualTo(new DrainPolicy.Wait(NOW.minusSeconds(60).plus(Duration.ofMinutes(10))));
        assertThat(POLICY.decide(draining(NOW.minus(Duration.ofMinutes(11))), NOW, 2))
                .isEqualTo(new DrainPolicy.Delete("timeout"));
    }
}
