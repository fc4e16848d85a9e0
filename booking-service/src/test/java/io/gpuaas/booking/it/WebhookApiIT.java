package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.gpuaas.events.Topics;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/** The webhook registration API: tenants see and delete only their own, URLs are checked, secrets stay secret. */
@ExtendWith(KafkaBrokerExtension.class)
class WebhookApiIT {

    private static WebhookFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = WebhookFixture.shared(broker);
    }

    @Test
    void shouldShowAndDeleteATenantsWebhookOnlyToItAndAdminsWhenTwoTenantsAsk() {
        String url = fixture.receiver.serve("/isolation", () -> 200);
        Map<String, Object> created = fixture.register(TEAM_A, url);
        String id = (String) created.get("id");
        assertThat(created).containsEntry("tenant", "team-a").containsEntry("url", url);
        assertThat((String) created.get("secret")).startsWith("whsec_");

        assertThat(list(TEAM_A)).contains(id).doesNotContain("secret").doesNotContain("whsec_");
        assertThat(list(TEAM_B)).doesNotContain(id);
        assertThat(list(ADMIN)).contains(id).doesNotContain("whsec_");

        HttpResponse<String> stolen = fixture.app.send("DELETE", "/api/v1/webhooks/" + id, TEAM_B, null, Map.of());
        assertThat(stolen.statusCode()).isEqualTo(404);
        assertThat(stolen.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(list(TEAM_A)).contains(id);

        HttpResponse<String> deleted = fixture.app.send("DELETE", "/api/v1/webhooks/" + id, TEAM_A, null, Map.of());
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(list(TEAM_A)).doesNotContain(id);
    }

    @Test
    void shouldDescribeTheWebhookApiWhenTheOpenApiDocumentIsRead() {
        String document = fixture.app.get("/openapi", null).body();

        assertThat(document)
                .contains("/api/v1/webhooks:", "/api/v1/webhooks/{id}:", "WebhookRequests.CreatedWebhook")
                .contains("\"201\":", "\"204\":");
    }

    @Test
    void shouldRefuseWithAProblemNamingTheRuleWhenTheUrlIsNotHttpsOrPointsInside() {
        assertProblem(post(TEAM_A, Map.of("url", "http://hooks.example.com/x")), 422, "HTTPS_REQUIRED");
        assertProblem(post(TEAM_A, Map.of("url", "https://10.0.0.7/x")), 422, "PRIVATE_ADDRESS");
        assertProblem(post(TEAM_A, Map.of("url", "https://169.254.169.254/latest/meta-data")), 422, "PRIVATE_ADDRESS");
        assertProblem(post(TEAM_A, Map.of("url", "https://localhost/x")), 422, "PRIVATE_ADDRESS");
        assertProblem(post(TEAM_A, Map.of("url", "not a url")), 400, "INVALID_URL");
        assertProblem(post(TEAM_A, Map.of("url", "https://[64:ff9b::a9fe:a9fe]/")), 422, "PRIVATE_ADDRESS");
        assertProblem(post(TEAM_A, Map.of("url", "https://198.18.0.1/x")), 422, "PRIVATE_ADDRESS");
        assertProblem(post(TEAM_A, Map.of("url", "https://hooks.example.com:99999/x")), 400, "INVALID_PORT");
        assertProblem(
                post(ADMIN, Map.of("url", "https://hooks.example.com/x", "tenant", "Team_A/../x")),
                400,
                "INVALID_NAME");
        assertProblem(post(TEAM_A, Map.of("description", "no url")), 400, "REQUIRED");
        assertProblem(post(ADMIN, Map.of("url", "https://hooks.example.com/x")), 422, "TENANT_REQUIRED");
        assertProblem(
                post(TEAM_A, Map.of("url", "https://hooks.example.com/x", "tenant", "team-b")),
                403,
                "TENANT_NOT_OWNED");
        assertThat(fixture.app
                        .send("GET", "/api/v1/webhooks", null, null, Map.of())
                        .statusCode())
                .isEqualTo(401);
    }

    @Test
    void shouldKeepTheSecretOutOfTheTopicAndTheLogsWhenAWebhookIsRegisteredAndUsed() {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Logger webhooks = (Logger) LoggerFactory.getLogger("io.gpuaas.booking.webhook");
        root.addAppender(logs);
        webhooks.setLevel(Level.DEBUG);
        try {
            String url = fixture.receiver.serve("/secret-check", () -> 200);
            String tenant = "hooks-secret";
            String token = BookingApp.JWT.token("dev", tenant, List.of(tenant), List.of(), Duration.ofHours(1));
            Map<String, Object> created = fixture.register(token, url);
            String secret = (String) created.get("secret");
            fixture.publish(WebhookFixture.notice(tenant));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !fixture.receiver.received("/secret-check").isEmpty());

            String key = secret.substring("whsec_".length());
            String topicBytes = webhooksTopicText();
            assertThat(topicBytes)
                    .contains((String) created.get("id"))
                    .doesNotContain(key)
                    .doesNotContain(secret);
            assertThat(topicBytes).doesNotContain(WebhookFixture.ENCRYPTION_KEY);
            List<String> lines = new ArrayList<>();
            for (ILoggingEvent event : logs.list) {
                lines.add(event.getFormattedMessage()
                        + (event.getThrowableProxy() == null
                                ? ""
                                : ThrowableProxyUtil.asString(event.getThrowableProxy())));
            }
            // The registration's own log line is among them, so the check below reads what the API wrote.
            assertThat(lines)
                    .anyMatch(l -> l.contains((String) created.get("id")))
                    .noneMatch(l -> l.contains(key) || l.contains(WebhookFixture.ENCRYPTION_KEY));
        } finally {
            root.detachAppender(logs);
            webhooks.setLevel(null);
        }
    }

    /** Every key, value and header of {@code gpuaas.webhooks} as an SRE's kcat would read them. */
    private static String webhooksTopicText() {
        String topic = Topics.WEBHOOKS.name(fixture.app.prefix);
        StringBuilder text = new StringBuilder();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                fixture.broker.clientProperties(), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    text.append(new String(r.key(), UTF_8)).append(' ');
                    for (Header h : r.headers()) {
                        text.append(h.key())
                                .append('=')
                                .append(new String(h.value(), UTF_8))
                                .append(' ');
                    }
                    text.append(r.value() == null ? "" : new String(r.value(), UTF_8))
                            .append('\n');
                }
                return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
            });
        }
        return text.toString();
    }

    private static String list(String token) {
        HttpResponse<String> listed = fixture.app.send("GET", "/api/v1/webhooks", token, null, Map.of());
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        return listed.body();
    }

    private static HttpResponse<String> post(String token, Map<String, Object> body) {
        return fixture.app.send("POST", "/api/v1/webhooks", token, json(body), Map.of());
    }

    private static void assertProblem(HttpResponse<String> response, int status, String rule) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(read(response.body())).containsEntry("rule", rule);
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("at io.gpuaas");
    }
}
