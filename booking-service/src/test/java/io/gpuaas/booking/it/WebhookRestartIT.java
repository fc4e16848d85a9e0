package io.gpuaas.booking.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * At least once across a restart: a delivery that had not ended when booking-service stopped is made again by the
 * next instance, under the same webhook-id, because its notice's offset was never committed.
 */
@ExtendWith(KafkaBrokerExtension.class)
class WebhookRestartIT {

    @Test
    void shouldDeliverAgainWithTheSameWebhookIdWhenTheServiceStoppedMidDelivery(KafkaBroker broker) {
        Map<String, Object> settings = new HashMap<>(WebhookFixture.SETTINGS);
        settings.put("gpuaas.lifecycle.shutdown-grace", "PT2S");
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        String tenant = "hooks-restart";
        String token = BookingApp.JWT.token("dev", tenant, List.of(tenant), List.of(), Duration.ofHours(1));
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String url = receiver.serve("/restart", () -> {
                if (calls.incrementAndGet() == 1) {
                    try {
                        // The first attempt hangs until the instance that made it is gone.
                        never.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return 200;
            });
            BookingApp first = BookingApp.start(broker, settings);
            String prefix = first.prefix;
            String applicationId = first.applicationId;
            try {
                WebhookFixture.register(first, token, url);
                WebhookFixture.publish(broker, prefix, WebhookFixture.notice(tenant));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !receiver.received("/restart").isEmpty());
            } finally {
                first.close();
            }

            try (BookingApp second = BookingApp.start(broker, prefix, applicationId, settings)) {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> receiver.received("/restart").size() >= 2);
                List<WebhookReceiver.Received> attempts = receiver.received("/restart");
                assertThat(attempts.get(1).header("webhook-id"))
                        .isEqualTo(attempts.get(0).header("webhook-id"));
                assertThat(second.readiness()).isEqualTo(200);
            } finally {
                never.countDown();
            }
        }
    }
}
