package io.gpuaas.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.ResourceFlavor;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.odh.v1.HardwareProfile;
import io.gpuaas.kube.ray.v1.RayCluster;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated classes read what Kueue, KubeRay and KServe write and send back what they do not know: a
 * read-modify-write changes only the field it sets (objects from {@code src/test/resources/objects}, shaped like
 * what those controllers leave on a cluster, with fields our schemas do not declare at every level).
 */
class GeneratedModelsTest {

    private static final KubernetesSerialization KUBE = new KubernetesSerialization();
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> kinds() {
        return Stream.of(
                Arguments.of(ClusterQueue.class, "kueue.x-k8s.io/v1beta2", "clusterqueues", false),
                Arguments.of(LocalQueue.class, "kueue.x-k8s.io/v1beta2", "localqueues", true),
                Arguments.of(Cohort.class, "kueue.x-k8s.io/v1beta2", "cohorts", false),
                Arguments.of(ResourceFlavor.class, "kueue.x-k8s.io/v1beta2", "resourceflavors", false),
                Arguments.of(Workload.class, "kueue.x-k8s.io/v1beta2", "workloads", true),
                Arguments.of(RayCluster.class, "ray.io/v1", "rayclusters", true),
                Arguments.of(InferenceService.class, "serving.kserve.io/v1beta1", "inferenceservices", true),
                Arguments.of(HardwareProfile.class, "infrastructure.opendatahub.io/v1", "hardwareprofiles", true));
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void shouldAddressTheUpstreamResourceWhenAClassIsUsedWithTheClient(
            Class<? extends HasMetadata> type, String apiVersion, String plural, boolean namespaced) throws Exception {
        assertThat(HasMetadata.getApiVersion(type)).isEqualTo(apiVersion);
        assertThat(HasMetadata.getPlural(type)).isEqualTo(plural);
        assertThat(Namespaced.class.isAssignableFrom(type)).isEqualTo(namespaced);
        assertThat(type.getDeclaredConstructor().newInstance().getApiVersion()).isEqualTo(apiVersion);
    }

    @Test
    void shouldChangeOnlyTheReplicasWhenARayClusterIsReadModifiedAndWritten() throws IOException {
        JsonNode original = object("raycluster.json");
        RayCluster cluster = KUBE.convertValue(original, RayCluster.class);

        var workers = cluster.getSpec().getWorkerGroupSpecs().getFirst();
        assertThat(workers.getGroupName()).isEqualTo("gpu-workers");
        assertThat(workers.getReplicas()).isEqualTo(2);
        assertThat(workers.getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getResources()
                        .getLimits())
                .containsEntry("nvidia.com/gpu", new Quantity("1"));
        workers.setReplicas(0);

        ObjectNode expected = original.deepCopy();
        ((ObjectNode) expected.at("/spec/workerGroupSpecs/0")).put("replicas", 0);
        assertThat(written(cluster)).isEqualTo(expected);
    }

    @Test
    void shouldChangeOnlyTheMinReplicasWhenAnInferenceServiceIsReadModifiedAndWritten() throws IOException {
        JsonNode original = object("inferenceservice.json");
        InferenceService service = KUBE.convertValue(original, InferenceService.class);

        var predictor = service.getSpec().getPredictor();
        assertThat(predictor.getModel().getModelFormat().getName()).isEqualTo("huggingface");
        assertThat(predictor.getModel().getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("1"));
        predictor.setMinReplicas(0);

        ObjectNode expected = original.deepCopy();
        ((ObjectNode) expected.at("/spec/predictor")).put("minReplicas", 0);
        assertThat(written(service)).isEqualTo(expected);
    }

    @Test
    void shouldChangeOnlyTheQuotaWhenAClusterQueueIsReadModifiedAndWritten() throws IOException {
        JsonNode original = object("clusterqueue.json");
        ClusterQueue queue = KUBE.convertValue(original, ClusterQueue.class);

        var quota = queue.getSpec()
                .getResourceGroups()
                .getFirst()
                .getFlavors()
                .getFirst()
                .getResources()
                .getFirst();
        assertThat(quota.getNominalQuota()).isEqualTo(new IntOrString("8"));
        assertThat(queue.getStatus().getConditions()).singleElement().satisfies(c -> assertThat(c.getType())
                .isEqualTo("Active"));
        quota.setNominalQuota(new IntOrString("4"));

        ObjectNode expected = original.deepCopy();
        ((ObjectNode) expected.at("/spec/resourceGroups/0/flavors/0/resources/0")).put("nominalQuota", "4");
        assertThat(written(queue)).isEqualTo(expected);
    }

    @Test
    void shouldReadAdmissionAndConditionsWhenAWorkloadComesFromKueue() throws IOException {
        JsonNode original = object("workload.json");
        Workload workload = KUBE.convertValue(original, Workload.class);

        assertThat(workload.getSpec().getQueueName()).isEqualTo("gpuaas");
        assertThat(workload.getSpec().getPriorityClassRef().getName()).isEqualTo("high");
        assertThat(workload.getSpec().getPodSets())
                .extracting(p -> p.getName(), p -> p.getCount())
                .containsExactly(tuple("main", 2));
        var assignment =
                workload.getStatus().getAdmission().getPodSetAssignments().getFirst();
        assertThat(assignment.getFlavors()).containsEntry("nvidia.com/gpu", "a100");
        assertThat(assignment.getResourceUsage()).containsEntry("nvidia.com/gpu", new IntOrString("2"));
        assertThat(workload.getStatus().getConditions())
                .extracting(c -> c.getType())
                .isEqualTo(List.of("QuotaReserved", "Admitted"));
        assertThat(written(workload)).isEqualTo(original);
    }

    private static JsonNode written(HasMetadata object) throws IOException {
        return JSON.readTree(KUBE.asJson(object));
    }

    private static JsonNode object(String name) throws IOException {
        try (InputStream in = GeneratedModelsTest.class.getResourceAsStream("/objects/" + name)) {
            assertThat(in).as("test object %s", name).isNotNull();
            return JSON.readTree(in);
        }
    }
}
