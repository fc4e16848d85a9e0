package io.gpuaas.booking.webhook;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.EventReader;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TaskPool;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.gpuaas.kit.runtime.WorkConsumer;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires tenant webhooks: the registry replica of {@code gpuaas.webhooks}, the registration API's store and the
 * notices deliverer. Without {@code gpuaas.webhooks.encryption-key} only the API exists, answering 503.
 */
@Factory
public class WebhookFactory {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookFactory.class);
    private static final String KEY_PROPERTY = "gpuaas.webhooks.encryption-key";

    @Singleton
    WebhookRegistry webhookRegistry() {
        return new WebhookRegistry();
    }

    @Singleton
    @Named("webhooks")
    UrlPolicy webhookUrlPolicy(WebhookSettings settings) {
        return UrlPolicy.of(settings.localHostSet());
    }

    @Singleton
    WebhookRegistrations webhookRegistrations(
            WebhookSettings settings,
            WebhookRegistry registry,
            @Named("webhooks") UrlPolicy policy,
            Optional<WebhookStore> store) {
        LOG.info("webhooks: {}", settings);
        Optional<SecretBox> box =
                settings.enabled() ? Optional.of(new SecretBox(settings.encryptionKey())) : Optional.empty();
        return new WebhookRegistrations(
                registry, store.orElse(null), box, policy, settings.maxPerTenant(), Clock.systemUTC());
    }

    @Singleton
    @Bean(preDestroy = "close")
    @Requires(property = KEY_PROPERTY)
    WebhookStore webhookStore(KafkaClients clients, WebhookRegistry registry) {
        KafkaProducer<String, WebhookRegistration> producer = new KafkaProducer<>(
                clients.producerConfig("booking-webhooks"),
                Topics.WEBHOOKS.keySerde().serializer(),
                Topics.WEBHOOKS.valueSerde().serializer());
        return new WebhookStore(producer, clients.topic(Topics.WEBHOOKS), registry);
    }

    @Singleton
    @Named("webhook-registry")
    @Requires(property = KEY_PROPERTY)
    TopicReplica webhookReplica(KafkaClients clients, WebhookRegistry registry, DeadLetterPublisher deadLetters) {
        return TopicReplica.builder(
                        "webhook-registry",
                        () -> clients.replicaConsumer("webhook-registry"),
                        clients.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.WEBHOOKS, StartAt.BEGINNING, registry::apply)
                .startOrder(0)
                .build();
    }

    /** The delivery attempts' virtual threads and retry timer; started before and stopped after the consumer. */
    @Singleton
    @Named("webhook-deliveries")
    @Requires(property = KEY_PROPERTY)
    TaskPool webhookDeliveries() {
        return new TaskPool("webhook-deliveries", 10);
    }

    /**
     * The notices consumer: service-kit's work consumer in the group {@code <application.id>-webhooks}, after the
     * webhooks replica (order 0) so the endpoints are known before the first notice is read.
     */
    @Singleton
    @Named(NoticeDeliverer.NAME)
    @Requires(property = KEY_PROPERTY)
    WorkConsumer<Notice, Void> noticeDeliverer(
            WebhookSettings settings,
            BookingSettings booking,
            KafkaClients clients,
            WebhookRegistry registry,
            @Named("webhooks") UrlPolicy policy,
            DeadLetterPublisher deadLetters,
            PrometheusRegistry prometheus,
            @Named("webhook-registry") TopicReplica registryReplica,
            @Named("webhook-deliveries") TaskPool tasks) {
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
        String group = KafkaAccess.consumerGroup(booking.applicationId(), KafkaAccess.WEBHOOK_DELIVERY);
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
                .startOrder(20)
                .build();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(KafkaClients clients, String group) {
        Map<String, Object> config = clients.consumerConfig(group);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, NoticeDeliverer.NAME);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
