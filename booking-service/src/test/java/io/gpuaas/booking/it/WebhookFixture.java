package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.read;

import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.kafka.KafkaBroker;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One booking-service with webhooks on (loopback receivers allowed, short backoff, three attempts) and one receiver,
 * shared by the webhook ITs of this JVM.
 */
final class WebhookFixture {

    static final String ENCRYPTION_KEY = Base64.getEncoder()
            .encodeToString("webhook-test-key-32-bytes-long!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    static final int MAX_ATTEMPTS = 3;

    /** Webhooks on, loopback receivers allowed, short backoff, three attempts, a long request timeout. */
    static final Map<String, Object> SETTINGS = Map.of(
            "gpuaas.webhooks.encryption-key",
            ENCRYPTION_KEY,
            "gpuaas.webhooks.local-hosts",
            List.of("127.0.0.1"),
            "gpuaas.webhooks.max-attempts",
            MAX_ATTEMPTS,
            "gpuaas.webhooks.backoff-initial",
            "PT0.4S",
            "gpuaas.webhooks.backoff-max",
            "PT10S",
            "gpuaas.webhooks.request-timeout",
            "PT30S",
            "gpuaas.webhooks.max-per-tenant",
            20);

    private static WebhookFixture shared;

    final KafkaBroker broker;
    final BookingApp app;
    final WebhookReceiver receiver = new WebhookReceiver();

    private WebhookFixture(KafkaBroker broker, BookingApp app) {
        this.broker = broker;
        this.app = app;
    }

    static synchronized WebhookFixture shared(KafkaBroker broker) {
        if (shared == null) {
            BookingApp app = BookingApp.start(broker, SETTINGS);
            shared = new WebhookFixture(broker, app);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                shared.receiver.close();
                app.close();
            }));
        }
        return shared;
    }

    /** Registers {@code url} as {@code token}'s tenant; the 201 body. */
    Map<String, Object> register(String token, String url) {
        return register(app, token, url);
    }

    static Map<String, Object> register(BookingApp app, String token, String url) {
        HttpResponse<String> created =
                app.send("POST", "/api/v1/webhooks", token, BookingApp.json(Map.of("url", url)), Map.of());
        if (created.statusCode() != 201) {
            throw new AssertionError("registration answered " + created.statusCode() + ": " + created.body());
        }
        return read(created.body());
    }

    /** A NoShowWarning for {@code tenant}, as booking-service's lifecycle would write it. */
    static Notice.NoShowWarning notice(String tenant) {
        String booking = UUID.randomUUID().toString();
        Instant since = Instant.now().minusSeconds(450);
        Duration grace = Duration.ofMinutes(15);
        return new Notice.NoShowWarning(
                Notice.noShowWarningId(booking),
                booking,
                tenant,
                tenant,
                "h200",
                2,
                since,
                since.plus(grace),
                grace,
                Instant.now());
    }

    /** Writes {@code notice} to the notices topic as its writer would; the record's bytes and where it went. */
    Written publish(Notice notice) {
        return publish(broker, app.prefix, notice);
    }

    static Written publish(KafkaBroker broker, String prefix, Notice notice) {
        String topic = Topics.NOTICES.name(prefix);
        RecordHeaders headers = new RecordHeaders();
        byte[] value = Topics.NOTICES.valueSerde().serializer().serialize(topic, headers, notice);
        String key = notice instanceof Notice.NoShowWarning w ? w.bookingId() : notice.noticeId();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            RecordMetadata at = producer.send(new ProducerRecord<>(
                            topic, null, key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value, headers))
                    .get();
            return new Written(value, at);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    record Written(byte[] value, RecordMetadata at) {}
}
