package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Each kustomization renders into objects the API server accepts as addressed: scope right, no duplicates. */
class OverlaysRenderTest {

    static final List<String> TARGETS = Rendering.TARGETS;

    /** Cluster-scoped kinds gpuaas ships; kustomize cannot know the scope of the CRD kinds among them. */
    private static final Set<String> CLUSTER_SCOPED = Set.of(
            "Namespace",
            "ClusterRole",
            "ClusterRoleBinding",
            "PriorityClass",
            "ResourceFlavor",
            "Cohort",
            "ClusterQueue");

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldNamespaceExactlyTheNamespacedObjectsWhenRendered(String target) {
        for (Map<String, Object> o : Rendering.of(target).objects()) {
            String kind = String.valueOf(o.get("kind"));
            String namespace = Yaml.string(o, "metadata", "namespace");
            if (CLUSTER_SCOPED.contains(kind)) {
                assertThat(namespace)
                        .as("%s %s is cluster-scoped", kind, Rendering.name(o))
                        .isNull();
            } else {
                assertThat(namespace)
                        .as("%s %s namespace", kind, Rendering.name(o))
                        .isNotBlank();
            }
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldRenderEachObjectOnceIntoNamespacesThatExist(String target) {
        Rendering rendering = Rendering.of(target);
        Set<String> seen = new HashSet<>();
        for (Map<String, Object> o : rendering.objects()) {
            String id = o.get("apiVersion") + "/" + o.get("kind") + "/" + Yaml.string(o, "metadata", "namespace") + "/"
                    + Rendering.name(o);
            assertThat(seen.add(id)).as("duplicate %s", id).isTrue();
        }
        // Everything namespaced lives in a namespace this rendering creates, or in one an operator already runs.
        Set<String> created = new HashSet<>(
                rendering.ofKind("Namespace").stream().map(Rendering::name).toList());
        Set<String> preexisting = Set.of("gpu-operator", "nvidia-gpu-operator");
        rendering.objects().stream()
                .map(o -> Yaml.string(o, "metadata", "namespace"))
                .filter(ns -> ns != null)
                .forEach(ns -> assertThat(created.contains(ns) || preexisting.contains(ns))
                        .as("namespace %s", ns)
                        .isTrue());
    }
}
