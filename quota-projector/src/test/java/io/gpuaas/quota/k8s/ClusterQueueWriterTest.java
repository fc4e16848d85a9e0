package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.quota.model.FlavorResource;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Compare and merge on the typed objects, without a server: what the writer owns, and what it leaves alone. */
class ClusterQueueWriterTest {

    private static final KueueManifests MANIFESTS =
            new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false));
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final KubernetesClient client =
            new KubernetesClientBuilder().withConfig(Config.empty()).build();
    private final ClusterQueueWriter writer = new ClusterQueueWriter(client, ref -> Optional.empty(), kind -> {});

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void shouldFindNothingToWriteWhenTheClusterOnlyAddedDefaultsAndStatus() {
        ClusterQueue desired = queue(3);
        ClusterQueue actual = asReadBack(desired, """
                {"flavorFungibility": {"whenCanBorrow": "MayStopSearch"}}""");

        assertThat(writer.matches(actual, desired)).isTrue();
        assertThat(writer.matches(actual, queue(4))).as("quota changed").isFalse();
    }

    @Test
    void shouldKeepWhatOthersSetWhenItUpdatesItsOwnFields() {
        ClusterQueue actual = asReadBack(queue(3), """
                {"flavorFungibility": {"whenCanBorrow": "MayStopSearch"}}""");
        actual.getMetadata().setAnnotations(Map.of("admin.example.com/note", "keep"));

        ClusterQueue merged = (ClusterQueue) writer.merged(actual, queue(5));

        assertThat(NominalQuota.of(merged)).containsValue(java.math.BigDecimal.valueOf(5));
        assertThat(merged.getSpec().getAdditionalProperties()).containsKey("flavorFungibility");
        assertThat(merged.getMetadata().getAnnotations()).containsEntry("admin.example.com/note", "keep");
        assertThat(merged.getMetadata().getResourceVersion())
                .as("the update is conditional")
                .isEqualTo("7");
        assertThat(writer.matches(merged, queue(5))).isTrue();
    }

    private static ClusterQueue queue(long gpus) {
        return MANIFESTS.clusterQueue(
                "team-a", new TreeMap<>(Map.of(new FlavorResource("h200", "nvidia.com/gpu"), gpus)), "None");
    }

    /** {@code written} as the API server hands it back: uid, resourceVersion, a status and defaulted spec fields. */
    @SuppressWarnings("unchecked")
    private static ClusterQueue asReadBack(ClusterQueue written, String defaults) {
        Map<String, Object> tree = JSON.convertValue(written, Map.class);
        ((Map<String, Object>) tree.get("spec")).putAll(JSON.unmarshal(defaults, Map.class));
        tree.put("status", Map.of("pendingWorkloads", 0));
        ((Map<String, Object>) tree.get("metadata")).putAll(Map.of("uid", "u-1", "resourceVersion", "7"));
        // Numbers come back as numbers where we wrote strings; the compare must not mind.
        return JSON.unmarshal(
                JSON.asJson(tree).replace("\"nominalQuota\":\"3\"", "\"nominalQuota\":3"), ClusterQueue.class);
    }
}
