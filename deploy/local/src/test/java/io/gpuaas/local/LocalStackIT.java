package io.gpuaas.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Json;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.ResourceFlavor;
import io.gpuaas.testing.k8s.GpuaasCrd;
import io.gpuaas.testing.net.ListeningSockets;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stack without services, on ephemeral ports so it never meets a running local stack. */
class LocalStackIT {

    @TempDir
    static Path target;

    private static LocalStack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = LocalStack.start(StackOptions.parse(
                "--no-services",
                "--kafka-port",
                "0",
                "--kube-port",
                "0",
                "--fleet-port",
                "0",
                "--tenants",
                "3",
                "--mig-delay",
                "1",
                "--target-dir",
                target.toString()));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldCreateEveryContractTopicWhenTheBrokerStarts() throws Exception {
        try (Admin admin = Admin.create(stack.kafkaIdentities().adminProperties())) {
            Set<String> topics = admin.listTopics().names().get();

            assertThat(topics)
                    .containsAll(Topics.all().stream()
                            .map(t -> t.name(Topics.DEFAULT_PREFIX))
                            .toList());
            assertThat(admin.describeTopics(List.of("gpuaas.gpu-samples"))
                            .allTopicNames()
                            .get()
                            .get("gpuaas.gpu-samples")
                            .partitions())
                    .hasSize(Topics.GPU_SAMPLES.partitions());
        }
    }

    @Test
    void shouldGiveEachPrincipalExactlyItsTopicsWhenItLogsInWithTheStacksCredentials() throws Exception {
        for (KafkaPrincipal principal : KafkaPrincipal.values()) {
            Set<String> granted = Topics.all().stream()
                    .filter(t -> KafkaAccess.readers(t).contains(principal)
                            || KafkaAccess.writers(t).contains(principal))
                    .map(t -> t.name(Topics.DEFAULT_PREFIX))
                    .collect(Collectors.toSet());
            try (Admin admin = Admin.create(stack.kafkaIdentities().clientProperties(principal))) {
                // The broker lists only the topics a principal may describe.
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                        .as(principal.userName())
                        .containsExactlyInAnyOrderElementsOf(granted);
            }
        }
        try (Admin anonymous = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                5000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                4000))) {
            assertThatThrownBy(() -> anonymous.listTopics().names().get(20, TimeUnit.SECONDS))
                    .as("a client without credentials")
                    .isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    void shouldWriteKafkaLoginsOnlyTheOwnerCanReadWhenTheStackStarts() throws Exception {
        JsonNode credentials =
                Json.mapper().readTree(stack.file("kafka-credentials").toFile());
        Path kcat = stack.file("kcat-sre");

        assertThat(credentials.path("bootstrapServers").asText()).isEqualTo(stack.bootstrapServers());
        assertThat(credentials.path("users").fieldNames())
                .toIterable()
                .containsExactly(
                        "gpuaas-admin",
                        "gpuaas-booking-service",
                        "gpuaas-quota-projector",
                        "gpuaas-idle-reclaimer",
                        "gpuaas-metrics-gateway",
                        "gpuaas-sre");
        assertThat(kcat)
                .content()
                .contains(
                        "bootstrap.servers=" + stack.bootstrapServers(),
                        "security.protocol=SASL_PLAINTEXT",
                        "sasl.username=gpuaas-sre",
                        "sasl.password="
                                + credentials
                                        .path("users")
                                        .path("gpuaas-sre")
                                        .path("password")
                                        .asText());
        for (Path secret : List.of(stack.file("kafka-credentials"), kcat)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
                    .as(secret.toString())
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void shouldKeepSecretsAndBrokerDataToTheOwnerAndListenOnlyOnLoopbackWhenTheStackStarts() throws Exception {
        for (String secret :
                List.of("jwt-private.jwk", "demo-tokens.json", "kafka-credentials.json", "kcat-sre.conf")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target.resolve(secret))))
                    .as(secret)
                    .isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target.resolve("kafka-data"))))
                .as("kafka-data")
                .isEqualTo("rwx------");

        // The broker, the API server and the exporters all run in this JVM.
        List<InetSocketAddress> listening =
                ListeningSockets.of(ProcessHandle.current().pid());
        assertThat(listening).as("listeners of the stack").hasSizeGreaterThanOrEqualTo(3);
        assertThat(listening).as("listeners of the stack").allSatisfy(a -> assertThat(
                        a.getAddress().isLoopbackAddress())
                .as(a.toString())
                .isTrue());
    }

    @Test
    void shouldSeedNodesFlavorsCohortAndTenantNamespacesWhenTheApiServerStarts() {
        KubernetesClient client = stack.kubernetes().client();

        List<Node> nodes = client.nodes().list().getItems();
        assertThat(nodes)
                .extracting(n -> n.getMetadata().getName())
                .containsExactly("gpu-node-1", "gpu-node-2", "gpu-node-3");
        assertThat(nodes.get(2).getMetadata().getLabels())
                .as("the flexible pool's node")
                .containsEntry("gpuaas.io/pool", "h200-flex")
                .containsEntry("nvidia.com/gpu.count", "8");
        assertThat(nodes.get(0).getMetadata().getLabels()).doesNotContainKey("gpuaas.io/pool");
        assertThat(nodes.get(0).getMetadata().getLabels()).containsEntry("nvidia.com/gpu.product", "NVIDIA-H200");
        assertThat(nodes.get(0)
                        .getStatus()
                        .getAllocatable()
                        .get("nvidia.com/gpu")
                        .getAmount())
                .isEqualTo("8");
        assertThat(nodes.get(1)
                        .getStatus()
                        .getAllocatable()
                        .get("nvidia.com/mig-2g.35gb")
                        .getAmount())
                .isEqualTo("9");
        assertThat(client.genericKubernetesResources(GpuaasCrd.RESOURCE_FLAVOR.context())
                        .list()
                        .getItems())
                .extracting(f -> f.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "h200",
                        "h200-mig-1g.18gb",
                        "h200-mig-2g.35gb",
                        "h200-mig-3g.71gb",
                        "h200-flex",
                        "gpuaas-any-node");
        assertThat(client.resources(ResourceFlavor.class)
                        .withName("h200-flex")
                        .get()
                        .getSpec()
                        .getNodeLabels())
                .containsEntry("gpuaas.io/pool", "h200-flex");
        var cohort = client.resources(Cohort.class).withName("gpuaas-pool").get();
        assertThat(cohort.getSpec().getResourceGroups())
                .as("the flexible flavor shares nvidia.com/gpu and every MIG resource, so Kueue needs one group")
                .hasSize(1);
        assertThat(client.namespaces().withName("gpu-operator").get()).isNotNull();
        assertThat(client.namespaces().withLabel("gpuaas.io/tenant").list().getItems())
                .extracting(Namespace::getMetadata)
                .extracting(m -> m.getName() + "=" + m.getLabels().get("gpuaas.io/tenant"))
                .containsExactlyInAnyOrder("team-a=team-a", "team-a-dev=team-a", "team-b=team-b", "team-c=team-c");
        assertThat(stack.file("kubeconfig")).content().contains("server: " + stack.kubernetesUrl());
    }

    @Test
    void shouldWriteTokensThatVerifyAgainstTheJwksWhenTheStackStarts() throws Exception {
        RSAKey key =
                JWKSet.load(stack.file("jwks").toFile()).getKeys().getFirst().toRSAKey();
        JsonNode tokens = Json.mapper().readTree(stack.file("tokens").toFile());

        assertThat(tokens.fieldNames())
                .toIterable()
                .containsExactly("team-a", "team-b", "team-c", "admin", "prometheus");
        for (String name : List.of("team-a", "admin", "prometheus")) {
            SignedJWT jwt = SignedJWT.parse(tokens.get(name).get("token").asText());
            assertThat(jwt.verify(new RSASSAVerifier(key))).as(name).isTrue();
        }
        var teamA = SignedJWT.parse(tokens.get("team-a").get("token").asText()).getJWTClaimsSet();
        assertThat(teamA.getStringClaim("tenant")).isEqualTo("team-a");
        assertThat(teamA.getStringListClaim("namespaces")).containsExactly("team-a", "team-a-dev");
        assertThat(teamA.getExpirationTime())
                .isAfter(new java.util.Date(System.currentTimeMillis() + 29L * 24 * 3600 * 1000));
        assertThat(SignedJWT.parse(tokens.get("admin").get("token").asText())
                        .getJWTClaimsSet()
                        .getStringListClaim("roles"))
                .containsExactly("admin");
        assertThat(SignedJWT.parse(tokens.get("prometheus").get("token").asText())
                        .getJWTClaimsSet()
                        .getStringListClaim("roles"))
                .containsExactly("metrics", "metrics-writer");
    }

    @Test
    void shouldWritePoolsMatchingTheFleetAndServeItsExportersWhenTheStackStarts() throws Exception {
        PoolCatalog pools = PoolCatalog.load(Optional.of(stack.file("pools")));
        assertThat(pools.pools()).extracting(Pool::capacity).containsExactly(8, 14, 9, 6, 8);
        assertThat(pools.pools().getLast().flexible()).isTrue();
        assertThat(stack.fleetUrls()).hasSize(3);

        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> scrape = http.send(
                HttpRequest.newBuilder(URI.create(stack.fleetUrls().get(1))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
        assertThat(scrape.body())
                .contains(
                        "# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge",
                        "Hostname=\"gpu-node-2\"",
                        "GPU_I_PROFILE=\"3g.71gb\"");
        assertThat(Files.exists(target.resolve("logs"))).isTrue();
    }

    @Test
    void shouldApplyAMigConfigOnTheFlexibleNodeAndServeItsInstancesWhenTheLabelChanges() throws Exception {
        KubernetesClient client = stack.kubernetes().client();
        client.configMaps()
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withNamespace("gpu-operator")
                        .withName("gpuaas-mig-parted-config")
                        .endMetadata()
                        .withData(Map.of("config.yaml", """
                                version: v1
                                mig-configs:
                                  all-disabled:
                                    - devices: all
                                      mig-enabled: false
                                  gpuaas-it:
                                    - devices: [7]
                                      mig-enabled: true
                                      mig-devices: {"3g.71gb": 2}
                                """))
                        .build())
                .create();

        client.nodes().withName("gpu-node-3").edit(n -> {
            n.getMetadata().getLabels().put("nvidia.com/mig.config", "gpuaas-it");
            return n;
        });

        // The seeded state is already success: wait for the new devices, then look at the state.
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        client.nodes().withName("gpu-node-3").get().getStatus().getAllocatable())
                .hasEntrySatisfying(
                        "nvidia.com/mig-3g.71gb", q -> assertThat(q.getAmount()).isEqualTo("2")));
        assertThat(client.nodes().withName("gpu-node-3").get().getMetadata().getLabels())
                .containsEntry("nvidia.com/mig.config.state", "success");
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(stack.fleetUrls().get(2)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.body()).contains("gpu=\"7\"", "GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"1\"", "GPU_I_ID=\"2\"");
    }
}
