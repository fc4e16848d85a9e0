package io.gpuaas.metrics;

import static io.gpuaas.events.KafkaPrincipal.METRICS_GATEWAY;

import com.sun.net.httpserver.HttpServer;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.testing.auth.TestJwt;
import io.gpuaas.testing.health.Readiness;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;

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
    /** Requests the fake exporter has answered. */
    public final AtomicInteger exporterScrapes = new AtomicInteger();

    public final EmbeddedServer server;

    public GatewayHarness(KafkaBroker broker, String exporterResource, Map<String, Object> extra) throws IOException {
        this(broker, exporterResource, exporterPort -> extra);
    }

    /** {@code extra} is given the fake exporter's port, e.g. to reach it by discovery rather than configuration. */
    public GatewayHarness(KafkaBroker broker, String exporterResource, IntFunction<Map<String, Object>> extra)
            throws IOException {
        this(broker, null, exporterResource, extra);
    }

    /**
     * A gateway on the topics under {@code prefix} (another harness's, for a second replica), or on new topics
     * under a prefix of its own when null. {@code beans} are registered in its context before it starts (test seams
     * such as a {@code ProjectionHook}).
     */
    public GatewayHarness(
            KafkaBroker broker,
            String prefix,
            String exporterResource,
            IntFunction<Map<String, Object>> extra,
            Object... beans)
            throws IOException {
        this.broker = broker;
        this.prefix = prefix != null ? prefix : broker.uniquePrefix();
        if (prefix == null) {
            try (Admin admin = broker.admin()) {
                TopicAdmin.createAll(admin, this.prefix);
            }
        }
        this.exporter = exporter(resource(exporterResource), exporterScrapes);
        Path jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        Map<String, Object> props = new HashMap<>(Map.of(
                "micronaut.server.port",
                -1,
                "gpuaas.kafka.topic-prefix",
                this.prefix,
                "gpuaas.security.jwks-path",
                jwks.toString(),
                "gpuaas.metrics-gateway.scrape.targets",
                "http://127.0.0.1:" + exporter.getAddress().getPort() + "/metrics",
                "gpuaas.metrics-gateway.scrape.interval",
                "500ms",
                "gpuaas.metrics-gateway.kubernetes.enabled",
                false));
        // The gateway's own Kafka user with exactly its ACLs; the harness's sends and reads are the super user's.
        props.putAll(broker.serviceProperties(METRICS_GATEWAY.userName(), gatewayAcls()));
        props.putAll(extra.apply(exporter.getAddress().getPort()));
        this.server =
                ApplicationContext.builder().properties(props).singletons(beans).run(EmbeddedServer.class);
    }

    /** Exactly what the gateway's Kafka user may do on this harness's topics (the fault ITs revoke and restore it). */
    public List<AclBinding> gatewayAcls() {
        return KafkaAccess.acls(METRICS_GATEWAY, prefix);
    }

    public static byte[] resource(String name) {
        try (InputStream in = GatewayHarness.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fake dcgm-exporter on an ephemeral port serving {@code body} at /metrics, counting its answers. */
    public static HttpServer exporter(byte[] body, AtomicInteger scrapes) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/metrics", exchange -> {
            scrapes.incrementAndGet();
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
        return get("/metrics", token("ops", List.of(), List.of("metrics")), null)
                .body();
    }

    /** Sends {@code value} to {@code topic} with the topic's own serializer (CloudEvents headers and all). */
    public <T> void send(TopicSpec<String, T> topic, String key, T value) {
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(
                broker.clientProperties(),
                topic.keySerde().serializer(),
                topic.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), key, value)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic.name(prefix), e);
        }
    }

    /** Reads {@code topic} from the beginning until some record matches (at most 20 s); the matches found by then. */
    public <V> List<ConsumerRecord<byte[], V>> consumeMatching(
            String topic, Deserializer<V> values, Predicate<ConsumerRecord<byte[], V>> match) {
        Properties props = new Properties();
        props.putAll(broker.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, broker.uniqueGroupId("mg-it"));
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], V>> found = new ArrayList<>();
        try (KafkaConsumer<byte[], V> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), values)) {
            consumer.subscribe(List.of(topic));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (match.test(r)) {
                        found.add(r);
                    }
                });
                return !found.isEmpty();
            });
        }
        return found;
    }

    /** Every record of {@code topic} from its beginning, read for {@code duration}. */
    public <V> List<ConsumerRecord<byte[], V>> consumeAll(String topic, Deserializer<V> values, Duration duration) {
        Properties props = new Properties();
        props.putAll(broker.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, broker.uniqueGroupId("mg-it"));
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], V>> found = new ArrayList<>();
        try (KafkaConsumer<byte[], V> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), values)) {
            consumer.subscribe(List.of(topic));
            long until = System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < until) {
                consumer.poll(Duration.ofMillis(200)).forEach(found::add);
            }
        }
        return found;
    }

    /** Waits until /health/readiness is UP: the projections follow their partitions from then on. */
    public void awaitReady() {
        Readiness.of(server.getURI()).within(Duration.ofSeconds(30)).awaitUp();
    }

    /** Sends raw bytes without CloudEvents headers, as a misbehaving producer would. */
    public void sendGarbage(TopicSpec<?, ?> topic, String key, byte[] value) {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic.name(prefix), key.getBytes(), value));
        }
    }

    @Override
    public void close() {
        server.close();
        exporter.stop(0);
    }
}
