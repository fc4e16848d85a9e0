package io.gpuaas.booking.webhook;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.kit.runtime.WorkConsumer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The work of the {@code gpuaas.notices} consumer (service-kit's {@link WorkConsumer}, component
 * {@value #NAME}): hands a notice to each webhook of its tenant ({@link EndpointQueues}) and never waits for a
 * delivery. The notice is done, and its offset may be committed, once every delivery it started ended (delivered,
 * dead-lettered or dropped); a notice whose tenant has no webhook is done at once.
 */
final class NoticeDeliverer implements WorkConsumer.Work<Notice, Void> {

    /** The consumer component's name in health details, its thread and its consumer's client id. */
    static final String NAME = "webhook-deliverer";

    private final WebhookRegistry registry;
    private final EndpointQueues queues;
    private final AtomicInteger pending = new AtomicInteger();

    NoticeDeliverer(WebhookRegistry registry, EndpointQueues queues) {
        this.registry = registry;
        this.queues = queues;
    }

    @Override
    public CompletionStage<Void> start(ConsumerRecord<byte[], byte[]> record, Notice notice) {
        List<WebhookRegistration> endpoints = registry.forTenant(notice.tenant());
        if (endpoints.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicInteger left = new AtomicInteger(endpoints.size());
        pending.addAndGet(endpoints.size());
        byte[] body = NoticeBody.of(record);
        for (WebhookRegistration endpoint : endpoints) {
            queues.submit(
                    new Delivery(record, endpoint.key(), NoticeBody.messageId(record, endpoint.id()), body, () -> {
                        pending.decrementAndGet();
                        if (left.decrementAndGet() == 0) {
                            done.complete(null);
                        }
                    }));
        }
        return done;
    }

    /** Deliveries started and not yet ended. */
    int pending() {
        return pending.get();
    }
}
