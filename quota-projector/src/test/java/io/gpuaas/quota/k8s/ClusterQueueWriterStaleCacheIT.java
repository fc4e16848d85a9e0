package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the CRUD mock: an object deleted behind the writer's back while its cache still holds it (a watch that lags, as
 * CI's broker-restart run saw for a minute and more) is created again on the first write, not updated with a 404 on
 * every attempt until the watch catches up.
 */
@ExtendWith(KubernetesApiExtension.class)
class ClusterQueueWriterStaleCacheIT {

    private static final KueueManifests MANIFESTS =
            new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, false));

    private KubernetesClient client;
    private final AtomicReference<HasMetadata> cached = new AtomicReference<>();

    @BeforeEach
    void start(KubernetesApi api) {
        client = api.newClient();
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void shouldCreateAnObjectAgainWhenItsCachedCopyWasDeletedOnTheServer() {
        ClusterQueueWriter writer = new ClusterQueueWriter(client, ref -> Optional.ofNullable(cached.get()), k -> {});
        LocalQueue desired = MANIFESTS.localQueue("team-b", "team-b");
        ObjectRef ref = ObjectRef.of(Kind.LOCAL_QUEUE, desired);
        assertThat(writer.apply(ref, desired)).isEqualTo(ClusterQueueWriter.Outcome.CREATED);
        LocalQueue live = client.resources(LocalQueue.class)
                .inNamespace("team-b")
                .withName(desired.getMetadata().getName())
                .get();
        cached.set(live);
        client.resource(live).delete();
        writer.forget();
        LocalQueue changed = MANIFESTS.localQueue("team-b", "team-b");
        changed.getMetadata().getLabels().put("gpuaas.io/test-change", "yes");

        assertThat(writer.apply(ref, changed)).isEqualTo(ClusterQueueWriter.Outcome.CREATED);

        assertThat(client.resources(LocalQueue.class)
                        .inNamespace("team-b")
                        .withName(desired.getMetadata().getName())
                        .get())
                .isNotNull()
                .satisfies(q -> assertThat(q.getMetadata().getLabels()).containsEntry("gpuaas.io/test-change", "yes"));
    }
}
