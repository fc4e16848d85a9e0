package io.gpuaas.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** What each service is configured with points at what the manifests really create and mount. */
class ServiceConfigTest {

    static final List<String> TARGETS = Rendering.TARGETS;
    static final List<String> SERVICES = RbacMatchesCodeTest.SERVICES;

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldPointEveryServiceAtTheRenderedKafkaBootstrapService(String target) {
        Rendering rendering = Rendering.of(target);
        Map<String, Object> kafka = rendering.ofKind("Kafka").getFirst();
        Map<String, Object> listener = KafkaUsersMatchAccessTableTest.servicesListener(kafka);
        String expected = Rendering.name(kafka) + "-kafka-bootstrap." + Yaml.string(kafka, "metadata", "namespace")
                + ".svc:" + listener.get("port");
        for (String service : SERVICES) {
            assertThat(ServiceConfig.of(rendering, service).get("gpuaas.kafka.bootstrap-servers"))
                    .as("bootstrap servers of %s", service)
                    .contains(expected);
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldFindTheJwksPoolsAndConfigFilesWhereTheyAreMounted(String target) {
        Rendering rendering = Rendering.of(target);
        for (String service : SERVICES) {
            ServiceConfig config = ServiceConfig.of(rendering, service);
            Map<String, Object> pod = Yaml.map(deployment(rendering, service), "spec", "template", "spec");
            assertThat(config.get("gpuaas.security.jwks-path"))
                    .as("%s jwks", service)
                    .contains(mountOf(pod, "secret", "gpuaas-jwks") + "/jwks.json");
            assertThat(config.get("gpuaas.pools-file"))
                    .as("%s pools", service)
                    .contains(mountOf(pod, "configMap", "gpuaas-pools") + "/pools.json");
            assertThat(config.env().get("MICRONAUT_CONFIG_FILES"))
                    .as("%s config files", service)
                    .isEqualTo(mountOf(pod, "configMap", "gpuaas-common") + "/application.yml,"
                            + mountOf(pod, "configMap", service + "-config") + "/application.yml");
            assertThat(config.get("micronaut.server.port")).contains("8080");
        }
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldSetOnlyPropertiesTheServicesRead(String target) {
        Rendering rendering = Rendering.of(target);
        List<String> unknown = new ArrayList<>();
        Set<String> anyService = new TreeSet<>();
        for (String service : SERVICES) {
            KnownProperties known = KnownProperties.of(service, "service-kit");
            ServiceConfig config = ServiceConfig.of(rendering, service);
            String own = ServiceConfig.file(rendering, service + "-config", "application.yml");
            config.properties().keySet().stream()
                    .filter(k -> k.startsWith("gpuaas."))
                    .forEach(k -> {
                        if (known.knows(k)) {
                            anyService.add(k);
                        } else if (own.contains(k.substring(k.lastIndexOf('.') + 1) + ":")) {
                            unknown.add(service + ": " + k);
                        }
                    });
            config.env().keySet().stream()
                    .filter(e -> e.startsWith("GPUAAS_"))
                    .filter(e -> known.exact().stream()
                            .noneMatch(
                                    p -> p.toUpperCase().replaceAll("[.-]", "_").equals(e)))
                    .forEach(e -> unknown.add(service + ": env " + e));
        }
        assertThat(unknown).as("properties no code of the service reads").isEmpty();
        // The shared file may hold a property only some services read, but each must be read by one.
        SERVICES.forEach(s -> ServiceConfig.of(rendering, s).properties().keySet().stream()
                .filter(k -> k.startsWith("gpuaas."))
                .forEach(k -> assertThat(anyService).as("read by a service").contains(k)));
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldExpectOneSamplePerScrapeWhenTheReclaimerJudgesIdleness(String target) {
        Rendering rendering = Rendering.of(target);
        Optional<String> sampleInterval =
                ServiceConfig.of(rendering, "idle-reclaimer").get("gpuaas.reclaimer.policy.sample-interval");
        Optional<String> scrapeInterval =
                ServiceConfig.of(rendering, "metrics-gateway").get("gpuaas.metrics-gateway.scrape.interval");
        assertThat(sampleInterval.map(ServiceConfigTest::duration))
                .as("idle-reclaimer sample-interval vs metrics-gateway scrape interval")
                .isPresent()
                .isEqualTo(scrapeInterval.map(ServiceConfigTest::duration));
    }

    @ParameterizedTest
    @FieldSource("TARGETS")
    void shouldGiveEveryPoolAResourceFlavorAndASharedQueueInTheProjectorsCohort(String target, @TempDir Path dir)
            throws IOException {
        Rendering rendering = Rendering.of(target);
        Path pools = Files.writeString(
                dir.resolve("pools.json"), ServiceConfig.file(rendering, "gpuaas-pools", "pools.json"));
        List<Pool> catalog = PoolCatalog.load(Optional.of(pools)).pools();
        assertThat(catalog).isNotEmpty();
        Set<String> flavors = new TreeSet<>(
                rendering.ofKind("ResourceFlavor").stream().map(Rendering::name).toList());
        String cohort = ServiceConfig.of(rendering, "quota-projector")
                .get("gpuaas.quota.cohort-name")
                .orElseThrow();
        assertThat(rendering.ofKind("Cohort")).extracting(Rendering::name).containsExactly(cohort);
        Map<String, Object> shared = rendering.ofKind("ClusterQueue").stream()
                .filter(q -> "gpuaas-shared".equals(Rendering.name(q)))
                .findFirst()
                .orElseThrow();
        assertThat(Yaml.string(shared, "spec", "cohortName")).isEqualTo(cohort);
        String groups = String.valueOf(Yaml.at(shared, "spec", "resourceGroups"));
        for (Pool pool : catalog) {
            assertThat(flavors).as("ResourceFlavor of pool %s", pool.id()).contains(pool.flavor());
            assertThat(groups)
                    .as("shared queue covers %s", pool.id())
                    .contains("name=" + pool.flavor())
                    .contains("name=" + pool.resource());
        }
    }

    private static Map<String, Object> deployment(Rendering rendering, String name) {
        return rendering.ofKind("Deployment").stream()
                .filter(d -> name.equals(Rendering.name(d)))
                .findFirst()
                .orElseThrow();
    }

    /** Where the volume built from the Secret or ConfigMap {@code source} is mounted in the first container. */
    private static String mountOf(Map<String, Object> pod, String kind, String source) {
        String key = "secret".equals(kind) ? "secretName" : "name";
        String volume = Yaml.list(pod, "volumes").stream()
                .filter(v -> {
                    String n = Yaml.string(v, kind, key);
                    return n != null && (n.equals(source) || n.matches(source + "-[a-z0-9]{10}"));
                })
                .map(v -> String.valueOf(v.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no volume from " + kind + " " + source));
        return Yaml.list(pod, "containers").getFirst().get("volumeMounts") instanceof List<?> mounts
                ? mounts.stream()
                        .map(m -> (Map<?, ?>) m)
                        .filter(m -> volume.equals(m.get("name")))
                        .map(m -> String.valueOf(m.get("mountPath")))
                        .findFirst()
                        .orElseThrow()
                : null;
    }

    private static Duration duration(String text) {
        String t = text.trim();
        if (t.startsWith("P") || t.startsWith("p")) {
            return Duration.parse(t);
        }
        long n = Long.parseLong(t.replaceAll("[a-z]+$", ""));
        return switch (t.replaceAll("^[0-9]+", "")) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("duration " + text);
        };
    }
}
