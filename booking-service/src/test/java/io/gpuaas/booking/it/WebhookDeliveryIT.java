package io.gpuaas.booking.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.booking.DeadLetterTopic;
import io.gpuaas.booking.it.WebhookFixture.Written;
import io.gpuaas.booking.it.WebhookReceiver.Received;
import io.gpuaas.booking.webhook.WebhookSigner;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Notices reach tenants' webhooks on the real broker with booking-service's own ACLs: signed per Standard Webhooks,
 * retried with growing gaps under one webhook-id, dead-lettered after the bound, and never held up by another
 * tenant's endpoint. Each test has tenants of its own, so no notice reaches another test's receiver.
 */
@ExtendWith(KafkaBrokerExtension.class)
class WebhookDeliveryIT {

    private static WebhookFixture fixture;

    @BeforeAll
    static void start(KafkaBroker broker) {
        fixture = WebhookFixture.shared(broker);
    }

    private static String tokenOf(String tenant) {
        return BookingApp.JWT.token("dev-" + tenant, tenant, List.of(tenant), List.of(), Duration.ofHours(1));
    }

    @Test
    void shouldPostASignedCloudEventWhenTheTenantHasAWebhook() throws IOException {
        String url = fixture.receiver.serve("/ok", () -> 204);
        String secret = (String) fixture.register(tokenOf("hooks-ok"), url).get("secret");
        Notice.NoShowWarning notice = WebhookFixture.notice("hooks-ok");

        fixture.publish(notice);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> !fixture.receiver.received("/ok").isEmpty());
        Received request = fixture.receiver.received("/ok").get(0);
        assertSigned(request, secret);
        assertThat(request.header("content-type")).isEqualTo("application/cloudevents+json");
        assertThat(Long.parseLong(request.header("webhook-timestamp")))
                .isCloseTo(Instant.now().getEpochSecond(), org.assertj.core.data.Offset.offset(300L));
        Map<String, Object> event = BookingApp.read(new String(request.body(), UTF_8));
        assertThat(event)
                .containsEntry("specversion", "1.0")
                .containsEntry("type", "io.gpuaas.notice.no-show-warning.v1")
                .containsEntry("subject", notice.bookingId())
                .containsEntry("source", "/gpuaas");
        assertThat(event.get("data"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("noticeId", notice.noticeId())
                .containsEntry("tenant", "hooks-ok");
    }

    @Test
    void shouldRetryWithGrowingGapsAndTheSameWebhookIdWhenTheEndpointAnswers500() {
        AtomicInteger calls = new AtomicInteger();
        String url = fixture.receiver.serve("/flaky", () -> calls.incrementAndGet() <= 2 ? 500 : 200);
        String secret = (String) fixture.register(tokenOf("hooks-flaky"), url).get("secret");

        fixture.publish(WebhookFixture.notice("hooks-flaky"));

        await().atMost(Duration.ofSeconds(30))
                .until(() -> fixture.receiver.received("/flaky").size() >= 3);
        List<Received> attempts = fixture.receiver.received("/flaky");
        assertThat(attempts)
                .extracting(r -> r.header("webhook-id"))
                .containsOnly(attempts.get(0).header("webhook-id"));
        attempts.forEach(r -> assertSigned(r, secret));
        long firstGap = attempts.get(1).nanos() - attempts.get(0).nanos();
        long secondGap = attempts.get(2).nanos() - attempts.get(1).nanos();
        assertThat(firstGap).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(secondGap).isGreaterThan(firstGap);
        // Delivered on the third attempt: nothing more comes.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> calls.get() == 3);
    }

    @Test
    void shouldDeadLetterTheOriginalNoticeWhenEveryAttemptFails() throws IOException {
        String url = fixture.receiver.serve("/down", () -> 503);
        fixture.register(tokenOf("hooks-dead"), url);

        Written written = fixture.publish(WebhookFixture.notice("hooks-dead"));

        String noticesTopic = Topics.NOTICES.name(fixture.app.prefix);
        String where = DeadLetterTopic.where(
                noticesTopic, written.at().partition(), written.at().offset());
        ConsumerRecord<byte[], byte[]> letter = DeadLetterTopic.awaitLetters(
                        fixture.broker, Topics.DEAD_LETTER.name(fixture.app.prefix), List.of(where))
                .get(where);
        assertThat(letter.value()).isEqualTo(written.value());
        assertThat(DeadLetterTopic.header(letter.headers(), DeadLetterPublisher.REASON))
                .isEqualTo("WebhookDeliveryFailed");
        assertThat(DeadLetterTopic.header(letter.headers(), DeadLetterPublisher.ERROR))
                .contains("3 attempt(s)")
                .doesNotContain(url);
        assertThat(fixture.receiver.received("/down")).hasSize(WebhookFixture.MAX_ATTEMPTS);
        assertThat(scrape()).contains("gpuaas_webhook_deliveries_total{outcome=\"dead_lettered\"}");
    }

    @Test
    void shouldDeliverToOtherTenantsWhenOneTenantsEndpointHangs() {
        CountDownLatch hang = new CountDownLatch(1);
        String slow = fixture.receiver.serve("/hanging", () -> {
            try {
                hang.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 200;
        });
        String fast = fixture.receiver.serve("/fast", () -> 200);
        fixture.register(tokenOf("hooks-slow"), slow);
        fixture.register(tokenOf("hooks-fast"), fast);

        for (int i = 0; i < 5; i++) {
            fixture.publish(WebhookFixture.notice("hooks-slow"));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !fixture.receiver.received("/hanging").isEmpty());
        fixture.publish(WebhookFixture.notice("hooks-fast"));

        try {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> !fixture.receiver.received("/fast").isEmpty());
            // The hanging endpoint still holds its requests: the other tenant's notice did not wait for them.
            assertThat(hang.getCount()).isEqualTo(1);
            assertThat(fixture.receiver.received("/hanging")).hasSizeLessThanOrEqualTo(2);
        } finally {
            hang.countDown();
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> fixture.receiver.received("/hanging").size() == 5);
    }

    /** What a receiver does: recompute the signature over id, timestamp and raw body with the registered secret. */
    private static void assertSigned(Received request, String secret) {
        String expected = WebhookSigner.sign(
                secret,
                request.header("webhook-id"),
                Long.parseLong(request.header("webhook-timestamp")),
                request.body());
        assertThat(request.header("webhook-id")).startsWith("msg_");
        assertThat(request.header("webhook-signature")).isEqualTo(expected);
    }

    private static String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create()
                .write(out, fixture.app.bean(PrometheusRegistry.class).scrape());
        return out.toString(UTF_8);
    }
}
