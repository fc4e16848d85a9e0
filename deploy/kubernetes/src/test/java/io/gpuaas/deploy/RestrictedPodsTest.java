package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every pod gpuaas ships passes the "restricted" Pod Security Standard and the service pods are operable: probes on
 * the health endpoints, resources, a read-only root with /tmp as the only writable path.
 */
class RestrictedPodsTest {

    static final List<String> TARGETS = Rendering.TARGETS;
    static final Set<String> SERVICES =
            Set.of("booking-service", "quota-projector", "idle-reclaimer", "metrics-gateway");

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldRunEveryContainerRestrictedWhenRendered(String target) {
        List<Deployment> deployments = Rendering.of(target).typed("Deployment", Deployment.class);
        assertThat(deployments).extracting(d -> d.getMetadata().getName()).containsAll(SERVICES);
        for (Deployment d : deployments) {
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            assertThat(pod.getSecurityContext().getRunAsNonRoot())
                    .as("%s runAsNonRoot", name(d))
                    .isTrue();
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            for (Container c : containers(pod)) {
                SecurityContext sc = c.getSecurityContext();
                String what = name(d) + "/" + c.getName();
                assertThat(sc).as(what).isNotNull();
                assertThat(sc.getAllowPrivilegeEscalation())
                        .as("%s allowPrivilegeEscalation", what)
                        .isFalse();
                assertThat(sc.getReadOnlyRootFilesystem())
                        .as("%s readOnlyRootFilesystem", what)
                        .isTrue();
                assertThat(sc.getRunAsNonRoot()).as("%s runAsNonRoot", what).isTrue();
                assertThat(sc.getPrivileged()).as("%s privileged", what).isNotEqualTo(Boolean.TRUE);
                assertThat(sc.getCapabilities().getDrop()).as("%s drops", what).containsExactly("ALL");
                assertThat(sc.getCapabilities().getAdd()).as("%s adds", what).isNullOrEmpty();
                assertThat(sc.getSeccompProfile().getType())
                        .as("%s seccomp", what)
                        .isEqualTo("RuntimeDefault");
                assertThat(c.getResources().getRequests())
                        .as("%s requests", what)
                        .containsKeys("cpu", "memory");
                assertThat(c.getResources().getLimits()).as("%s limits", what).containsKey("memory");
            }
            assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getVolumes()).as("%s volumes", name(d)).noneMatch(v -> v.getHostPath() != null);
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldProbeHealthAndWriteOnlyToTmpWhenAServiceRuns(String target) {
        for (Deployment d : Rendering.of(target).typed("Deployment", Deployment.class)) {
            if (!SERVICES.contains(name(d))) {
                continue;
            }
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            Container c = pod.getContainers().getFirst();
            assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health/liveness");
            assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health/readiness");
            assertThat(c.getPorts()).anyMatch(p -> "http".equals(p.getName()) && p.getContainerPort() == 8080);
            String tmpVolume = c.getVolumeMounts().stream()
                    .filter(m -> "/tmp".equals(m.getMountPath()))
                    .map(m -> m.getName())
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(name(d) + " mounts no /tmp"));
            assertThat(pod.getVolumes())
                    .filteredOn(v -> v.getName().equals(tmpVolume))
                    .singleElement()
                    .satisfies(v -> assertThat(v.getEmptyDir())
                            .as("/tmp is an emptyDir")
                            .isNotNull());
            // Every other mount is read-only configuration.
            assertThat(c.getVolumeMounts())
                    .filteredOn(m -> !"/tmp".equals(m.getMountPath()))
                    .allMatch(m -> Boolean.TRUE.equals(m.getReadOnly()));
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldProtectEveryServiceWithADisruptionBudgetThatStillLetsNodesDrain(String target) {
        Rendering rendering = Rendering.of(target);
        List<Map<String, Object>> pdbs = rendering.ofKind("PodDisruptionBudget");
        for (String service : SERVICES) {
            assertThat(pdbs).as("PDB of %s", service).anySatisfy(p -> {
                assertThat(Yaml.string(p, "spec", "selector", "matchLabels", "app.kubernetes.io/name"))
                        .isEqualTo(service);
                assertThat(Yaml.at(p, "spec", "maxUnavailable")).isEqualTo(1);
            });
        }
    }

    private static List<Container> containers(PodSpec pod) {
        List<Container> all = new ArrayList<>(pod.getContainers());
        Stream.ofNullable(pod.getInitContainers()).forEach(all::addAll);
        return all;
    }

    private static String name(Deployment d) {
        return d.getMetadata().getName();
    }
}
