package io.gpuaas.reclaim.http;

import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The resume edge against crafted paths: a name Kubernetes could not hold is a 400 problem that reaches neither
 * the API server nor {@code reclaim-events}; a tenant looping on resume gets 429 with Retry-After.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ResumeEdgeIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<ReclaimEvent> EVENTS = new CopyOnWriteArrayList<>();
    private static volatile boolean readerLive;

    private static ApplicationContext context;
    private static EmbeddedServer server;
    private static KubernetesClient client;
    private static KubernetesApi kube;
    private static String prefix;
    private static String applicationId;
    private static KafkaBroker kafka;
    private static volatile boolean reading = true;
    private static Thread reader;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        kube = api;
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        client = api.newClient();
        for (String ns : List.of("team-a", "team-b")) {
            client.namespaces().resource(Fixtures.namespace(ns, ns)).create();
        }
        client.resources(InferenceService.class)
                .inNamespace("team-b")
                .resource(Fixtures.inferenceService("team-b", "demo-llm", 2, Map.of()))
                .create();
        client.resources(InferenceService.class)
                .inNamespace("team-a")
                .resource(Fixtures.inferenceService("team-a", "chat", 2, Map.of()))
                .create();
        var jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        kafka = broker;
        applicationId = broker.uniqueGroupId("idle-reclaimer-edge");
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                jwks.toString(),
                "gpuaas.reclaimer.application-id",
                applicationId,
                "gpuaas.reclaimer.resume.burst",
                3,
                "gpuaas.reclaimer.resume.requests-per-second",
                0.01));
        // The service authenticates as idle-reclaimer with exactly its ACLs, as in production.
        props.putAll(broker.serviceProperties(
                IDLE_RECLAIMER.userName(), KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId)));
        context = ApplicationContext.builder()
                .singletons(client)
                .properties(props)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
        reader = Thread.ofVirtual().start(() -> readEvents(broker));
        // "No ReclaimFailed was published" means something only once the reader is really reading.
        await().atMost(Duration.ofSeconds(30)).until(() -> readerLive);
    }

    @AfterAll
    static void stop() throws Exception {
        reading = false;
        reader.join(5_000);
        server.close();
        context.close();
        client.close();
    }

    @Test
    void shouldAnswer400AndTouchNothingWhenNamesAreNotKubernetesNames() throws Exception {
        String owner = JWT.token("alice", "team-a", List.of("team-a"), List.of(), Duration.ofMinutes(5));
        String admin = JWT.token("root", "platform", List.of(), List.of("admin"), Duration.ofMinutes(5));
        drainApiRequests();

        Map<String, String> crafted = Map.of(
                "/api/v1/workloads/team-a/InferenceService/..%2F..%2Fteam-b%2Finferenceservices%2Fdemo-llm/resume",
                "name",
                "/api/v1/workloads/team-a/InferenceService/a%20b/resume",
                "name",
                "/api/v1/workloads/team-a/InferenceService/a%0d%0ab/resume",
                "name",
                "/api/v1/workloads/team-a/InferenceService/Chat/resume",
                "name",
                "/api/v1/workloads/team-a/InferenceService/" + "a".repeat(254) + "/resume",
                "name",
                "/api/v1/workloads/..%2Fteam-b/InferenceService/demo-llm/resume",
                "namespace",
                "/api/v1/workloads/Team-A/InferenceService/chat/resume",
                "namespace");
        for (Map.Entry<String, String> path : crafted.entrySet()) {
            for (String token : List.of(owner, admin)) {
                HttpResponse<String> response = post(path.getKey(), token);
                assertThat(response.statusCode()).as(path.getKey()).isEqualTo(400);
                assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
                assertThat(response.body())
                        .contains("\"field\":\"" + path.getValue() + "\"", "DNS1123")
                        .doesNotContainPattern("(?i)java\\.|fabric8|exception");
            }
        }

        Thread.sleep(1_000);
        assertThat(EVENTS).as("no ReclaimFailed for bad input").noneMatch(e -> e instanceof ReclaimEvent.ReclaimFailed);
        assertThat(drainApiRequests())
                .as("requests that reached the API server")
                .noneMatch(p -> p.contains("inferenceservices") || p.contains("demo-llm"));
    }

    @Test
    void shouldAnswer429WithRetryAfterWhenATenantResumesTooOften() throws Exception {
        String owner = JWT.token("bob", "team-limited", List.of("team-a"), List.of(), Duration.ofMinutes(5));
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int i = 0; i < 4; i++) {
            last = post("/api/v1/workloads/team-a/InferenceService/chat/resume", owner);
            statuses.add(last.statusCode());
        }

        assertThat(statuses).containsExactly(409, 409, 409, 429);
        assertThat(last.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(last.headers().firstValue("Retry-After"))
                .hasValueSatisfying(s -> assertThat(Long.parseLong(s)).isPositive());
        assertThat(last.body()).contains("\"rule\":\"RATE_LIMITED\"");
        String other = JWT.token("carol", "team-other", List.of("team-a"), List.of(), Duration.ofMinutes(5));
        assertThat(post("/api/v1/workloads/team-a/InferenceService/chat/resume", other)
                        .statusCode())
                .as("another tenant keeps its own bucket")
                .isEqualTo(409);
    }

    @Test
    void shouldHideInternalsFromEveryCaller() throws Exception {
        String admin = JWT.token("root", "platform", List.of(), List.of("admin"), Duration.ofMinutes(5));
        for (String path : List.of("/beans", "/routes", "/info", "/threaddump")) {
            HttpResponse<String> response = send("GET", path, admin);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        }
        HttpResponse<String> health = send("GET", "/health", null);
        assertThat(health.body()).contains("\"status\"").doesNotContain("details", "diskSpace", "clusterId");
    }

    private static List<String> drainApiRequests() throws InterruptedException {
        List<String> paths = new ArrayList<>();
        RecordedRequest request;
        while ((request = kube.server().takeRequest(200, TimeUnit.MILLISECONDS)) != null) {
            paths.add(request.getPath());
        }
        return paths;
    }

    private static void readEvents(KafkaBroker broker) {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var consumer = new KafkaConsumer<>(
                config,
                new StringDeserializer(),
                Topics.RECLAIM_EVENTS.valueSerde().deserializer())) {
            var partitions = consumer.partitionsFor(Topics.RECLAIM_EVENTS.name(prefix)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            partitions.forEach(consumer::position);
            readerLive = true;
            while (reading) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> EVENTS.add(r.value()));
            }
        }
    }

    /**
     * "Keep it" is booking-service's (bounded per booking and UTC day by the pool's policy there): idle-reclaimer serves
     * no keep path, so neither the owner nor an admin can keep a workload here around the booking's bound, and its
     * Kafka identity may not write {@code reclaim-keeps} either, so only booking-service's decisions reach the stream.
     */
    @Test
    void shouldOfferNoWayAroundTheBookingsKeepBoundWhenAskedDirectly() throws Exception {
        String owner = JWT.token("alice", "team-a", List.of("team-a"), List.of(), Duration.ofMinutes(5));
        String admin = JWT.token("root", "platform", List.of(), List.of("admin"), Duration.ofMinutes(5));
        String path = "/api/v1/workloads/team-a/InferenceService/chat/keep";
        for (String token : List.of(owner, admin)) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + server.getPort() + path))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"hours\": 24}"))
                    .build();
            assertThat(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(404);
        }

        Map<String, Object> config = new HashMap<>();
        config.putAll(kafka.serviceCredentials(
                IDLE_RECLAIMER.userName(), KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId)));
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        WorkloadRef chat = new WorkloadRef("team-a", "InferenceService", "chat");
        try (var producer = new KafkaProducer<>(
                config,
                new StringSerializer(),
                Topics.RECLAIM_KEEPS.valueSerde().serializer())) {
            var sent = producer.send(new ProducerRecord<>(
                    Topics.RECLAIM_KEEPS.name(prefix),
                    chat.key(),
                    new KeepRequested(chat, "team-a", "direct", 24, "alice", Instant.now())));
            assertThatThrownBy(() -> sent.get(15, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    private static HttpResponse<String> post(String path, String token) throws Exception {
        return send("POST", path, token);
    }

    private static HttpResponse<String> send(String method, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + server.getPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
