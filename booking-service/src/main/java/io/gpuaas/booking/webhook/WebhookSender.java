package io.gpuaas.booking.webhook;

import io.gpuaas.events.webhook.WebhookRegistration;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * One delivery attempt: reads the endpoint as it is now (deleted: nothing to do), checks its URL again (DNS may
 * have changed), signs the body per Standard Webhooks and POSTs it once. Blocking; run on a virtual thread.
 */
final class WebhookSender {

    /** How an attempt ended; {@code label} is the metric's {@code result}. */
    sealed interface Result {
        String label();

        record Delivered(int status) implements Result {
            @Override
            public String label() {
                return "2xx";
            }
        }

        record Retryable(String label, String detail) implements Result {}

        record Permanent(String label, String detail) implements Result {}

        record Gone() implements Result {
            @Override
            public String label() {
                return "gone";
            }
        }
    }

    private final HttpClient client;
    private final WebhookRegistry registry;
    private final SecretBox box;
    private final UrlPolicy policy;
    private final Duration requestTimeout;
    private final Clock clock;

    WebhookSender(
            HttpClient client,
            WebhookRegistry registry,
            SecretBox box,
            UrlPolicy policy,
            Duration requestTimeout,
            Clock clock) {
        this.client = client;
        this.registry = registry;
        this.box = box;
        this.policy = policy;
        this.requestTimeout = requestTimeout;
        this.clock = clock;
    }

    Result attempt(Delivery delivery) throws InterruptedException {
        Optional<WebhookRegistration> endpoint = registry.byKey(delivery.endpointKey());
        if (endpoint.isEmpty()) {
            return new Result.Gone();
        }
        URI uri;
        try {
            uri = policy.check(endpoint.get().url());
        } catch (UrlPolicy.Refused refused) {
            return "UNRESOLVABLE_HOST".equals(refused.rule())
                    ? new Result.Retryable("refused", refused.getMessage())
                    : new Result.Permanent("refused", refused.getMessage());
        }
        String secret =
                box.open(endpoint.get().encryptedSecret(), endpoint.get().key());
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(requestTimeout)
                .header("Content-Type", NoticeBody.MEDIA_TYPE)
                .header("User-Agent", "gpuaas-webhooks/1")
                .header("webhook-id", delivery.messageId())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header(
                        "webhook-signature",
                        WebhookSigner.sign(secret, delivery.messageId(), timestamp, delivery.body()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.body()))
                .build();
        try {
            int status =
                    client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return classify(status);
        } catch (HttpTimeoutException e) {
            return new Result.Retryable("timeout", "no answer within " + requestTimeout);
        } catch (IOException e) {
            return new Result.Retryable(
                    "connection", "connection failed: " + e.getClass().getSimpleName());
        }
    }

    /** 2xx delivered; 408, 429 and 5xx worth another try; anything else (redirects too) is the receiver's no. */
    static Result classify(int status) {
        if (status >= 200 && status < 300) {
            return new Result.Delivered(status);
        }
        if (status == 429) {
            return new Result.Retryable("429", "HTTP 429");
        }
        if (status == 408 || status >= 500) {
            return new Result.Retryable("5xx", "HTTP " + status);
        }
        return new Result.Permanent(status >= 400 ? "4xx" : "other", "HTTP " + status);
    }
}
