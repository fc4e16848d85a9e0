package io.gpuaas.booking.webhook;

import io.gpuaas.booking.StartOrder;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TaskPool;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.WorkConsumer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How the parts of webhook delivery are made from settings: the notices consumer with its sender, endpoint queues and
 * metrics, and the registration store's producer. {@code BookingService} decides whether they exist and in which
 * order they run.
 */
public final class NoticeDelivery {

    private NoticeDelivery() {}

    /** The registration API's store: a producer of {@code gpuaas.webhooks} that also updates {@code registry}. */
    public static WebhookStore store(KafkaClients clients, WebhookRegistry registry) {
        Producer<String, WebhookRegistration> producer = clients.producer("booking-webhooks", Topics.WEBHOOKS);
        return new WebhookStore(producer, clients.topic(Topics.WEBHOOKS), registry);
    }

    /**
     * The notices consumer ({@value NoticeDeliverer#NAME}): service-kit's work consumer in the group
     * {@code <application.id>-webhooks}, its attempts on {@code tasks}, started once {@code registryReplica} has read
     * the whole webhooks topic.
     */
    public static WorkConsumer<Notice, Void> consumer(
            WebhookSettings settings,
            String applicationId,
            KafkaClients clients,
            WebhookRegistry registry,
            UrlPolicy policy,
            DeadLetterPublisher deadLetters,
            PrometheusRegistry prometheus,
            TopicReplica registryReplica,
            TaskPool tasks) {
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        WebhookSender sender = new WebhookSender(
                http,
                registry,
                new SecretBox(settings.encryptionKey()),
                policy,
                settings.requestTimeout(),
                Clock.systemUTC());
        EndpointQueues[] queues = new EndpointQueues[1];
        NoticeDeliverer[] deliverer = new NoticeDeliverer[1];
        WebhookMetrics metrics = new WebhookMetrics(prometheus, () -> queues[0].queued(), () -> deliverer[0].pending());
        queues[0] = new EndpointQueues(
                tasks,
                sender,
                deadLetters,
                new RetryBackoff(settings.backoffInitial(), settings.backoffMax()),
                settings.maxAttempts(),
                settings.inFlightPerEndpoint(),
                settings.queuePerEndpoint(),
                metrics);
        deliverer[0] = new NoticeDeliverer(registry, queues[0]);
        String group = KafkaAccess.consumerGroup(applicationId, KafkaAccess.WEBHOOK_DELIVERY);
        return WorkConsumer.builder(
                        NoticeDeliverer.NAME,
                        () -> consumer(clients, group),
                        clients.topic(Topics.NOTICES),
                        EventReader.of(Topics.NOTICES, deadLetters),
                        deadLetters,
                        deliverer[0])
                // A notice read before its tenant's endpoints are known would count as delivered to nobody and its
                // offset would be committed: the registry must be whole first (after a restart, too).
                .startAfter(registryReplica::awaitCaughtUp)
                .maxOpenPerPartition(settings.maxPending())
                .metrics(prometheus)
                .startOrder(StartOrder.DELIVERIES)
                .build();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(KafkaClients clients, String group) {
        Map<String, Object> config = clients.consumerConfig(group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, NoticeDeliverer.NAME);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
