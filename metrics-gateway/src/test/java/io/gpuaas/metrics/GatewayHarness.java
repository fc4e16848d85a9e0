package io.gpuaas.metrics;

import com.sun.net.httpserver.HttpServer;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A running metrics-gateway for tests: real broker topics under a unique prefix, signed tokens, and a fake
 * dcgm-exporter (JDK HttpServer on an ephemeral port) serving a real scrape from test resources.
 */
public final class GatewayHarness implements AutoCloseable {

    public static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    public final KafkaBroker broker;
    public final String prefix;
    public final HttpServer exporter;
    public final EmbeddedServer server;

    public GatewayHarness(KafkaBroker broker, String exporterResource, Map<String, Object> extra) throws IOException {
        this.broker = broker;
        this.prefix = broker.uniquePrefix();
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        this.exporter = exporter(resource(exporterResource));
        Path jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port", -1,
                "gpuaas.kafka.bootstrap-servers", broker.bootstrapServers(),
                "gpuaas.kafka.topic-prefix", prefix,
                "gpuaas.security.jwks-path", jwks.toString(),
                "gpuaas.metrics-gateway.scrape.targets", "http://127.0.0.1:" + exporter.getAddress().getPort() + "/metrics",
                "gpuaas.metrics-gateway.scrape.interval", "500ms",
                "gpuaas.metrics-gateway.kubernetes.enabled", false));
        props.putAll(extra);
        this.server = ApplicationContext.run(EmbeddedServer.class, props);
    }

    public static byte[] resource(String name) {
        try (InputStream in = GatewayHarness.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpServer exporter(byte[] body) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/metrics", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        http.start();
        return http;
    }

    public static String token(String tenant, List<String> namespaces, List<String> roles) {
        return JWT.token("user-" + tenant, tenant, namespaces, roles, Duration.ofMinutes(10));
    }

    public HttpResponse<String> get(String path, String token, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.getURL() + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (accept != null) {
            request.header("Accept", accept);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    public String metrics() throws IOException, InterruptedException {
        return get("/metrics", token("ops", List.of(), List.of("metrics")), null).body();
    }

    /** Sends {@code value} to {@code topic} with the topic's own serializer (CloudEvents headers and all). */
    public <T> void send(TopicSpec<String, T> topic, String key, T value) {
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(broker.clientProperties(),
                topic.keySerde().serializer(), topic.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), key, value)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic.name(prefix), e);
        }
    }

    /** Waits until /health/readiness is UP: the projections follow their partitions from then on. */
    public void awaitReady() {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                get("/health/readiness", null, null).statusCode() == 200);
    }

    /** Sends raw bytes without CloudEvents headers, as a misbehaving producer would. */
    public void sendGarbage(TopicSpec<?, ?> topic, String key, byte[] value) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(broker.clientProperties(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), key.getBytes(), value));
        }
    }

    @Override
    public void close() {
        server.close();
        exporter.stop(0);
    }
}
