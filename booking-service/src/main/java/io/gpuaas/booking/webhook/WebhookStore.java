package io.gpuaas.booking.webhook;

import io.gpuaas.events.webhook.WebhookRegistration;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes registrations and deletions to {@code gpuaas.webhooks} and waits for the broker, then applies them to the
 * local {@link WebhookRegistry} so the caller reads its own write; other replicas see it through their replica.
 */
public final class WebhookStore {

    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);

    private final Producer<String, WebhookRegistration> producer;
    private final String topic;
    private final WebhookRegistry registry;

    public WebhookStore(Producer<String, WebhookRegistration> producer, String topic, WebhookRegistry registry) {
        this.producer = producer;
        this.topic = topic;
        this.registry = registry;
    }

    /** Stores {@code registration}; throws when the broker did not take it (nothing was registered then). */
    public void put(WebhookRegistration registration) {
        write(registration.key(), registration);
        registry.apply(registration.key(), registration);
    }

    /** Deletes {@code registration} with a tombstone on its key. */
    public void delete(WebhookRegistration registration) {
        write(registration.key(), null);
        registry.apply(registration.key(), null);
    }

    private void write(String key, WebhookRegistration value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get(WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while storing webhook " + key, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot store webhook " + key, e);
        }
    }

    /** Closes the producer (the context's shutdown). */
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
