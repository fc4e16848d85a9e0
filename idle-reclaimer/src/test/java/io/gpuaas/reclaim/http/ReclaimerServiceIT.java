package io.gpuaas.reclaim.http;

import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.Samples;
import io.gpuaas.reclaim.Samples.Device;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.health.Readiness;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service as deployed: Micronaut, a real broker, the mock API, real signed tokens. One real flow end to end:
 * idle samples on {@code gpu-samples} → the InferenceService scaled to zero → resumed over HTTP.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class ReclaimerServiceIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String NS = "team-a";
    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final List<ReclaimEvent> EVENTS = new CopyOnWriteArrayList<>();

    private static ApplicationContext context;
    private static EmbeddedServer server;
    private static KubernetesClient client;
    private static KafkaProducer<String, GpuScrapeEvent> producer;
    private static String prefix;
    private static volatile boolean reading = true;
    private static Thread reader;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        client = api.newClient();
        client.namespaces().resource(Fixtures.namespace(NS, "team-a")).create();
        client.resources(InferenceService.class)
                .inNamespace(NS)
                .resource(Fixtures.inferenceService(NS, "chat", 2, Map.of()))
                .create();
        client.pods()
                .inNamespace(NS)
                .resource(Fixtures.predictor(NS, "chat", "chat-predictor-0", "nvidia.com/gpu", 1))
                .create();
        var jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        String applicationId = broker.uniqueGroupId("idle-reclaimer-svc");
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                prefix,
                "gpuaas.security.jwks-path",
                jwks.toString(),
                "gpuaas.reclaimer.application-id",
                applicationId,
                "gpuaas.reclaimer.policy.window",
                "2s",
                "gpuaas.reclaimer.policy.sample-interval",
                "200ms",
                "gpuaas.reclaimer.policy.warm-up",
                "0s"));
        props.putAll(broker.serviceProperties(
                IDLE_RECLAIMER.userName(), KafkaAccess.acls(IDLE_RECLAIMER, prefix, applicationId)));
        context = ApplicationContext.builder()
                .singletons(client)
                .properties(props)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
        producer = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.GPU_SAMPLES.valueSerde().serializer());
        reader = Thread.ofVirtual().start(() -> readEvents(broker));
    }

    @AfterAll
    static void stop() throws Exception {
        reading = false;
        reader.join(5_000);
        producer.close();
        server.close();
        context.close();
        client.close();
    }

    private static void readEvents(KafkaBroker broker) {
        Map<String, Object> config = broker.clientProperties();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var consumer = new KafkaConsumer<>(
                config,
                new StringDeserializer(),
                Topics.RECLAIM_EVENTS.valueSerde().deserializer())) {
            var partitions = consumer.partitionsFor(Topics.RECLAIM_EVENTS.name(prefix)).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (reading) {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> EVENTS.add(r.value()));
            }
        }
    }

    private static HttpResponse<String> send(String method, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + server.getPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String token(String tenant, List<String> namespaces, List<String> roles) {
        return JWT.token(tenant + "-user", tenant, namespaces, roles, Duration.ofMinutes(5));
    }

    private static Integer minReplicas() {
        InferenceService isvc = client.resources(InferenceService.class)
                .inNamespace(NS)
                .withName("chat")
                .get();
        return isvc.getSpec().getPredictor().getMinReplicas();
    }

    @Test
    void shouldReclaimIdleSamplesAndLetOnlyTheOwningTenantResume() throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> send("GET", "/health/readiness", null).statusCode() == 200);
        Device gpu = new Device("node-1", "GPU-svc", null, NS, "chat-predictor-0");
        Samples s = Samples.startingSoon(INTERVAL);
        List<ProducerRecord<String, GpuScrapeEvent>> records = new ArrayList<>();
        s.run(gpu, 0, 12, 0.0)
                .forEach(x -> records.add(new ProducerRecord<>(Topics.GPU_SAMPLES.name(prefix), x.key(), x)));
        records.forEach(producer::send);
        producer.flush();

        await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(0).equals(minReplicas()));
        assertThat(send("POST", "/api/v1/workloads/team-a/InferenceService/chat/resume", null)
                        .statusCode())
                .isEqualTo(401);
        HttpResponse<String> stranger = send(
                "POST",
                "/api/v1/workloads/team-a/InferenceService/chat/resume",
                token("team-b", List.of("team-b"), List.of()));
        assertThat(stranger.statusCode()).isEqualTo(404);
        assertThat(stranger.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(minReplicas()).isZero();

        HttpResponse<String> owner = send(
                "POST",
                "/api/v1/workloads/team-a/inferenceservices/chat/resume",
                token("team-a", List.of("team-a", "team-a-dev"), List.of()));

        assertThat(owner.statusCode()).isEqualTo(200);
        assertThat(owner.body()).contains("\"group\":\"predictor\"");
        assertThat(minReplicas()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(10)).until(() -> EVENTS.stream()
                .anyMatch(e ->
                        e instanceof ReclaimEvent.Resumed r && r.requestedBy().equals("team-a-user")));
        // Reclaimed comes from the Streams pipeline's transaction, Resumed from the HTTP path's producer: either may
        // reach the test's reader first.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(EVENTS)
                .anyMatch(e -> e instanceof ReclaimEvent.Reclaimed r && r.gpusFreed() == 1 && !r.dryRun()));
        HttpResponse<String> again = send(
                "POST",
                "/api/v1/workloads/team-a/InferenceService/chat/resume",
                token("admin", List.of(), List.of("admin")));
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.body()).contains("MUST_BE_RECLAIMED");
    }

    @Test
    void shouldRejectAnUnknownKindWithAProblem() throws Exception {
        HttpResponse<String> response = send(
                "POST", "/api/v1/workloads/team-a/Deployment/chat/resume", token("admin", List.of(), List.of("admin")));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"field\":\"kind\"");
    }

    @Test
    void shouldReportReadinessAndMetrics() throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> send("GET", "/health/readiness", null).statusCode() == 200);

        // Details (which checks, their state) are for the metrics or admin role only.
        Readiness.Answer readiness = Readiness.onPort(server.getPort())
                .withToken(token("ops", List.of(), List.of("metrics")))
                .read();
        HttpResponse<String> metrics = send("GET", "/metrics", token("ops", List.of(), List.of("metrics")));

        assertThat(readiness.up()).isTrue();
        assertThat(readiness.body()).contains("kafka", "components");
        // The informer caches are components: RUNNING means every informer listed once and watches.
        for (String component : List.of(
                "pod-owners",
                "workload-directory",
                "resume-requests",
                "reclaim-streams",
                "reclaim-applier",
                "reclaim-intents",
                "reclaim-announcer",
                "reclaim-announcements")) {
            assertThat(readiness.componentState(component)).as(component).hasValue("RUNNING");
        }
        assertThat(send("GET", "/health/liveness", null).statusCode()).isEqualTo(200);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains(
                        "# TYPE gpuaas_reclaim_window_samples_total counter",
                        "# TYPE gpuaas_reclaim_window_close_to_patch_seconds histogram");
    }
}
