package io.gpuaas.quota.http;

import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Labels;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service as deployed: Micronaut, a real broker, the mock API, signed tokens. Health reflects Kafka and the
 * Kubernetes API, /metrics needs a token, and a booking published to Kafka becomes a ClusterQueue.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class QuotaProjectorServiceIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static ApplicationContext context;
    private static EmbeddedServer server;
    private static KubernetesClient client;
    private static String prefix;
    private static KafkaBroker kafka;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        prefix = broker.uniquePrefix();
        kafka = broker;
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        client = api.newClient();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("team-a")
                        .addToLabels(Labels.TENANT, "team-a")
                        .endMetadata()
                        .build())
                .create();
        var jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                jwks.toString()));
        props.putAll(broker.serviceProperties(QUOTA_PROJECTOR.userName(), KafkaAccess.acls(QUOTA_PROJECTOR, prefix)));
        context = ApplicationContext.builder()
                .singletons(client)
                .properties(props)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
    }

    @AfterAll
    static void stop() {
        server.close();
        context.close();
        client.close();
    }

    @Test
    void shouldBeReadyServeMetricsOnlyWithTokenAndProjectBookingWhenRunningAsService() throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> get("/health/readiness", null).statusCode() == 200);
        assertThat(get("/health/liveness", null).statusCode()).isEqualTo(200);
        String sre = JWT.token("sre", "platform", List.of(), List.of("metrics"), Duration.ofMinutes(5));
        assertThat(get("/health/readiness", sre).body())
                .contains(
                        "components",
                        "kafka",
                        "kube-cache",
                        "booking-table",
                        "leader-duties",
                        "quota-writer",
                        "queue-writer",
                        "quota-planner",
                        "booking-notices",
                        "notice-writer",
                        "quota-leadership");
        assertThat(get("/health/readiness", null).body())
                .as("no details without the role")
                .doesNotContain("components", "kafka");
        HttpResponse<String> beans = get("/beans", sre);
        assertThat(beans.statusCode()).as("management endpoints are off").isEqualTo(404);
        assertThat(beans.headers().firstValue("content-type")).hasValue("application/problem+json");

        try (var producer = new KafkaProducer<>(
                kafka.clientProperties(),
                new StringSerializer(),
                Topics.BOOKINGS.valueSerde().serializer())) {
            Booking booking = new Booking(
                    "b-svc",
                    "team-a",
                    "team-a",
                    "h200",
                    "h200",
                    "nvidia.com/gpu",
                    2,
                    Instant.now(),
                    Instant.now().plusSeconds(300),
                    null,
                    BookingState.ACTIVE,
                    "alice",
                    Instant.now(),
                    Instant.now(),
                    1);
            producer.send(new ProducerRecord<>(Topics.BOOKINGS.name(prefix), booking.id(), booking))
                    .get();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> clusterQueue("gpuaas-team-a") != null);

        assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
        String metricsToken = JWT.token("prometheus", "platform", List.of(), List.of("metrics"), Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(get("/metrics", metricsToken).body())
                        .contains("gpuaas_quota_invariant_ok{flavor=\"h200\",resource=\"nvidia.com/gpu\"} 1.0")
                        .contains("gpuaas_quota_tenant_nominal_sum{flavor=\"h200\",resource=\"nvidia.com/gpu\"} 2.0")
                        .contains("gpuaas_quota_leader 1.0"));
    }

    private static ClusterQueue clusterQueue(String name) {
        return client.resources(ClusterQueue.class).withName(name).get();
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + server.getPort() + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
