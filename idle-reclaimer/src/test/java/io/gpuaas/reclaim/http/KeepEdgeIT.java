package io.gpuaas.reclaim.http;

import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.reclaim.ReclaimEvent;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The keep answer over HTTP, the whole service on the real broker: 202 and the stream's {@code ReclaimKept} for the
 * owner, the same 404 for another tenant as for an unknown workload, 422 beyond the per-answer bound, 409 beyond the
 * day's, 400 for a body that is not whole hours, 401 without a token.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class KeepEdgeIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<ReclaimEvent> EVENTS = new CopyOnWriteArrayList<>();
    private static final String CHAT = "/api/v1/workloads/team-a/InferenceService/chat/keep";
    private static final String DEMO = "/api/v1/workloads/team-b/InferenceService/demo-llm/keep";
    private static volatile boolean readerLive;
    private static volatile boolean reading = true;

    private static ApplicationContext context;
    private static EmbeddedServer server;
    private static KubernetesClient client;
    private static String prefix;
    private static Thread reader;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        client = api.newClient();
        for (String ns : List.of("team-a", "team-b")) {
            client.namespaces().resource(Fixtures.namespace(ns, ns)).create();
        }
        client.resources(InferenceService.class)
                .inNamespace("team-a")
                .resource(Fixtures.inferenceService("team-a", "chat", 1, Map.of()))
                .create();
        client.resources(InferenceService.class)
                .inNamespace("team-b")
                .resource(Fixtures.inferenceService("team-b", "demo-llm", 1, Map.of()))
                .create();
        var jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        String applicationId = broker.uniqueGroupId("idle-reclaimer-keep");
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                jwks.toString(),
                "gpuaas.reclaimer.application-id",
                applicationId));
        // The service authenticates as idle-reclaimer with exactly its ACLs, as in production.
        props.putAll(broker.serviceProperties(
                IDLE_RECLAIMER.userName(), KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId)));
        context = ApplicationContext.builder()
                .singletons(client)
                .properties(props)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
        reader = Thread.ofVirtual().start(() -> readEvents(broker));
        await().atMost(Duration.ofSeconds(60)).until(() -> readerLive);
    }

    @AfterAll
    static void stop() throws Exception {
        reading = false;
        reader.join(5_000);
        server.close();
        context.close();
        client.close();
    }

    private static String token(String subject, String tenant, String namespace) {
        return JWT.token(subject, tenant, List.of(namespace), List.of(), Duration.ofMinutes(10));
    }

    @Test
    void shouldAcceptTheOwnersAnswerAndTheStreamGrantsItWhenWithinTheBounds() throws Exception {
        String alice = token("alice", "team-a", "team-a");

        // The workload cache may still be filling right after start: the same 404 as an unknown one until then.
        await().atMost(Duration.ofSeconds(60))
                .until(() -> post(CHAT, alice, "{\"hours\": 4}").statusCode() == 202);

        await().atMost(Duration.ofSeconds(60))
                .until(() -> EVENTS.stream().anyMatch(e -> e instanceof ReclaimEvent.ReclaimKept));
        ReclaimEvent.ReclaimKept kept = EVENTS.stream()
                .filter(ReclaimEvent.ReclaimKept.class::isInstance)
                .map(ReclaimEvent.ReclaimKept.class::cast)
                .filter(k -> k.workload().name().equals("chat"))
                .findFirst()
                .orElseThrow();
        assertThat(kept.hours()).isEqualTo(4);
        assertThat(kept.requestedBy()).isEqualTo("alice");
        assertThat(kept.tenant()).isEqualTo("team-a");
        assertThat(kept.keptUntil()).isEqualTo(kept.time().plus(Duration.ofHours(4)));
    }

    @Test
    void shouldAnswerTheSame404ForAnotherTenantsWorkloadAsForAnUnknownOne() throws Exception {
        String bob = token("bob", "team-b", "team-b");
        String alice = token("alice", "team-a", "team-a");

        HttpResponse<String> foreign = post(CHAT, bob, "{\"hours\": 1}");
        HttpResponse<String> unknown =
                post("/api/v1/workloads/team-a/InferenceService/nowhere/keep", alice, "{\"hours\": 1}");

        for (HttpResponse<String> response : List.of(foreign, unknown)) {
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
            assertThat(response.body()).contains("\"rule\":\"WORKLOAD_EXISTS\"");
        }
        assertThat(post(CHAT, null, "{\"hours\": 1}").statusCode())
                .as("no token")
                .isEqualTo(401);
    }

    @Test
    void shouldAnswer422BeyondAnAnswersBoundAnd409BeyondTheDaysWhenATeamKeepsAskingForMore() throws Exception {
        String bob = token("bob", "team-b", "team-b");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> post(DEMO, bob, "{\"hours\": 99}").statusCode() == 422);

        HttpResponse<String> tooLong = post(DEMO, bob, "{\"hours\": 25}");
        assertThat(tooLong.statusCode()).isEqualTo(422);
        assertThat(tooLong.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(tooLong.body()).contains("\"rule\":\"KEEP_BOUND\"", "\"bound\":\"per-answer\"", "\"maxHours\":24");

        // The dashboard's largest button is within the default bounds: one answer may take the whole day.
        assertThat(post(DEMO, bob, "{\"hours\": 24}").statusCode()).isEqualTo(202);
        HttpResponse<String> dayUsed = post(DEMO, bob, "{\"hours\": 1}");
        assertThat(dayUsed.statusCode()).isEqualTo(409);
        assertThat(dayUsed.body()).contains("\"bound\":\"per-day\"", "\"maxHours\":24", "\"hoursLeft\":0");
    }

    @Test
    void shouldAnswer400WhenTheBodyIsNotWholeHours() throws Exception {
        String alice = token("alice", "team-a", "team-a");
        for (String body : List.of("", "{}", "{\"hours\": 0}", "{\"hours\": 1.5}", "{\"hours\": \"2\"}", "not json")) {
            HttpResponse<String> response = post(CHAT, alice, body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(response.body())
                    .contains("\"field\":\"hours\"")
                    .doesNotContainPattern("(?i)java\\.|jackson|exception");
        }
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

    private static HttpResponse<String> post(String path, String token, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + server.getPort() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
