package io.gpuaas.booking.it;

import static io.gpuaas.events.KafkaPrincipal.BOOKING_SERVICE;
import static io.gpuaas.events.KafkaPrincipal.IDLE_RECLAIMER;
import static io.gpuaas.events.KafkaPrincipal.QUOTA_PROJECTOR;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.TopicSpec;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One booking-service for the dashboard ITs of this JVM, its Resume forwarded to a fake idle-reclaimer and its usage
 * reads to a fake ledger ({@link FakeLedger}), both on loopback, recording what arrives; and publishing onto the
 * service's topics as the service that owns each one.
 */
final class DashboardFixture {

    /** A call the fake idle-reclaimer received. */
    record ResumeCall(String path, String authorization) {}

    static final List<ResumeCall> RESUMES = new CopyOnWriteArrayList<>();

    private static DashboardFixture shared;

    final BookingApp app;
    final KafkaBroker broker;

    private DashboardFixture(BookingApp app, KafkaBroker broker) {
        this.app = app;
        this.broker = broker;
    }

    static synchronized DashboardFixture shared(KafkaBroker broker) {
        if (shared == null) {
            URI reclaimer = fakeReclaimer();
            URI ledger = FakeLedger.start();
            BookingApp app = BookingApp.start(
                    broker,
                    Map.of(
                            "gpuaas.booking.reclaimer-url",
                            reclaimer.toString(),
                            "gpuaas.booking.ledger-url",
                            ledger.toString(),
                            "gpuaas.booking.http.burst",
                            1000,
                            "gpuaas.booking.http.requests-per-second",
                            200,
                            "gpuaas.booking.decision-timeout",
                            "PT15S",
                            // a 15-minute book now (its end 15 to 30 minutes away) is always ending soon
                            "gpuaas.booking.lifecycle.ending-soon-leads",
                            "PT30M,PT5M"));
            Runtime.getRuntime().addShutdownHook(new Thread(app::close));
            shared = new DashboardFixture(app, broker);
        }
        return shared;
    }

    /**
     * Answers every resume 200 with the reclaimer's body shape, after noting the path and bearer token; a workload named
     * {@code ray-down} 500, as a reclaimer that fails.
     */
    private static URI fakeReclaimer() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/api/v1/workloads/", exchange -> {
                RESUMES.add(new ResumeCall(
                        exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Authorization")));
                boolean down = exchange.getRequestURI().getPath().contains("/ray-down/");
                int status = down ? 500 : 200;
                String answer = down ? "{\"error\":\"boom\"}" : "{\"workload\":{},\"groups\":[]}";
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code value} to {@code topic} with {@code owner}'s credentials and exactly its ACLs. */
    <T> void publish(KafkaPrincipal owner, TopicSpec<String, T> topic, String key, T value) {
        publish(broker, app, owner, topic, key, value);
    }

    /** Writes {@code value} to {@code app}'s {@code topic} as {@code owner} (its credentials, exactly its ACLs). */
    static <T> void publish(
            KafkaBroker broker, BookingApp app, KafkaPrincipal owner, TopicSpec<String, T> topic, String key, T value) {
        Map<String, Object> config = new HashMap<>(broker.clientProperties());
        config.putAll(broker.serviceCredentials(owner.userName(), acls(app, owner)));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(
                config, new StringSerializer(), topic.valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topic.name(app.prefix), key, value))
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<AclBinding> acls(BookingApp app, KafkaPrincipal owner) {
        assertThat(owner).isIn(BOOKING_SERVICE, IDLE_RECLAIMER, QUOTA_PROJECTOR);
        return owner == BOOKING_SERVICE
                ? KafkaAccess.acls(owner, app.prefix, app.applicationId)
                : KafkaAccess.acls(owner, app.prefix);
    }
}
