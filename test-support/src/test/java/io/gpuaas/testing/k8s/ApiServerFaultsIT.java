package io.gpuaas.testing.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubernetesApiExtension.class)
class ApiServerFaultsIT {

    @Test
    void shouldRefuseWritesUnderThePrefixButServeReadsAndOtherWritesWhileFailing(KubernetesApi api) {
        var queues = api.resources(GpuaasCrd.CLUSTER_QUEUE);
        queues.resource(queue("before")).create();

        api.faults().failWrites(503, "/apis/kueue.x-k8s.io/");
        try {
            assertThatThrownBy(() -> queues.resource(queue("during")).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                            .isEqualTo(503));
            assertThatThrownBy(() -> queues.withName("before").delete())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                            .isEqualTo(503));
            assertThat(queues.withName("before").get()).as("reads go on").isNotNull();
            api.client()
                    .configMaps()
                    .resource(new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("other")
                            .endMetadata()
                            .build())
                    .create();
            assertThat(api.faults().refused()).isEqualTo(2);
        } finally {
            api.faults().heal();
        }

        queues.resource(queue("after")).create();
        assertThat(queues.list().getItems())
                .extracting(q -> q.getMetadata().getName())
                .containsExactlyInAnyOrder("before", "after");
    }

    private static GenericKubernetesResource queue(String name) {
        GenericKubernetesResource queue = new GenericKubernetesResource();
        queue.setApiVersion(GpuaasCrd.CLUSTER_QUEUE.apiVersion());
        queue.setKind(GpuaasCrd.CLUSTER_QUEUE.kind());
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.setAdditionalProperty("spec", Map.of("cohortName", "gpuaas-pool"));
        return queue;
    }
}
