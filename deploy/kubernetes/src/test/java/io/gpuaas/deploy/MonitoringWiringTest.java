package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Scrapes and scalers reach what they name: a renamed Service port or Deployment breaks here, not in production. */
class MonitoringWiringTest {

    static final List<String> TARGETS = Rendering.TARGETS;

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldScrapeEveryServiceOnANamedPortWithTheMetricsToken(String target) {
        Rendering rendering = Rendering.of(target);
        Map<String, Object> monitor = rendering.ofKind("ServiceMonitor").getFirst();
        Map<String, Object> endpoint = Yaml.list(monitor, "spec", "endpoints").getFirst();
        assertThat(endpoint.get("path")).isEqualTo("/metrics");
        assertThat(Yaml.string(endpoint, "authorization", "type")).isEqualTo("Bearer");
        assertThat(Yaml.string(endpoint, "authorization", "credentials", "name"))
                .isEqualTo("gpuaas-metrics-token");
        String selected = String.valueOf(Yaml.at(monitor, "spec", "selector"));
        for (String service : RbacMatchesCodeTest.SERVICES) {
            assertThat(selected).as("ServiceMonitor selects %s", service).contains(service);
            Map<String, Object> svc = rendering.ofKind("Service").stream()
                    .filter(s -> service.equals(Rendering.name(s)))
                    .findFirst()
                    .orElseThrow();
            assertThat(Yaml.string(svc, "metadata", "labels", "app.kubernetes.io/name"))
                    .isEqualTo(service);
            assertThat(Yaml.list(svc, "spec", "ports"))
                    .anyMatch(p -> endpoint.get("port").equals(p.get("name")));
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldScaleDeploymentsThatExistInTheScaledObjectsNamespace(String target) {
        Rendering rendering = Rendering.of(target);
        for (Map<String, Object> so : rendering.ofKind("ScaledObject")) {
            String ns = Yaml.string(so, "metadata", "namespace");
            String name = Yaml.string(so, "spec", "scaleTargetRef", "name");
            boolean rendered = rendering.ofKind("Deployment").stream()
                    .anyMatch(
                            d -> name.equals(Rendering.name(d)) && ns.equals(Yaml.string(d, "metadata", "namespace")));
            // A raw-mode KServe predictor Deployment is created by KServe from the InferenceService <name>.
            boolean predictor = name.endsWith("-predictor")
                    && rendering.ofKind("InferenceService").stream()
                            .anyMatch(i -> name.equals(Rendering.name(i) + "-predictor")
                                    && ns.equals(Yaml.string(i, "metadata", "namespace"))
                                    && "RawDeployment"
                                            .equals(Yaml.string(
                                                    i, "metadata", "annotations", "serving.kserve.io/deploymentMode")));
            assertThat(rendered || predictor)
                    .as("target %s/%s of ScaledObject %s", ns, name, Rendering.name(so))
                    .isTrue();
            assertThat(Yaml.at(so, "spec", "pollingInterval"))
                    .as("pollingInterval stated")
                    .isNotNull();
            assertThat(Yaml.at(so, "spec", "cooldownPeriod"))
                    .as("cooldownPeriod stated")
                    .isNotNull();
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldScrapeTheKafkaExporterOfTheRenderedCluster(String target) {
        Rendering rendering = Rendering.of(target);
        String cluster = Rendering.name(rendering.ofKind("Kafka").getFirst());
        Map<String, Object> podMonitor = rendering.ofKind("PodMonitor").getFirst();
        assertThat(Yaml.string(podMonitor, "spec", "selector", "matchLabels", "strimzi.io/name"))
                .isEqualTo(cluster + "-kafka-exporter");
    }
}
