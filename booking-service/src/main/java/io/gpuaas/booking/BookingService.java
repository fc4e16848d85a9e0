package io.gpuaas.booking;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.config.FeedSettings;
import io.gpuaas.booking.config.LifecycleSettings;
import io.gpuaas.booking.dashboard.BookingActivities;
import io.gpuaas.booking.dashboard.DashboardSettings;
import io.gpuaas.booking.dashboard.LedgerForwarder;
import io.gpuaas.booking.dashboard.ResumeForwarder;
import io.gpuaas.booking.dashboard.WorkloadActivity;
import io.gpuaas.booking.dashboard.WorkloadPresenceReader;
import io.gpuaas.booking.kafka.BookingFeed;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.DecisionAwaiter;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.stream.DecisionEngine;
import io.gpuaas.booking.webhook.NoticeDelivery;
import io.gpuaas.booking.webhook.SecretBox;
import io.gpuaas.booking.webhook.UrlPolicy;
import io.gpuaas.booking.webhook.WebhookRegistrations;
import io.gpuaas.booking.webhook.WebhookRegistry;
import io.gpuaas.booking.webhook.WebhookSettings;
import io.gpuaas.booking.webhook.WebhookStore;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.ServiceComponents;
import io.gpuaas.kit.runtime.StreamsApplication;
import io.gpuaas.kit.runtime.TaskPool;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole booking-service, built in one place and read top to bottom: the pure decider, the topics in (the booking
 * feed behind the HTTP answers, reads and idempotency keys; the dashboard's feed of reclaims and notices), the decision
 * engine that decides and runs the lifecycle clock, and the loops out (webhook delivery of notices). Service-kit's
 * {@code ServiceLifecycle} runs {@link #components()} in {@link StartOrder} and stops them in reverse; {@link #close()}
 * then closes the registration store's producer. Which parts exist is decided here from settings, as plain
 * conditions: webhook registration, the registry replica and delivery only with {@code gpuaas.webhooks.encryption-key}
 * (without it the API answers 503 and no notice is consumed).
 */
public final class BookingService implements ServiceComponents, AutoCloseable {

    /** Written to {@code gpuaas_dlq_group} by every booking-service instance, whichever path gave up. */
    public static final String DEAD_LETTER_GROUP = "booking-service";

    private static final Logger LOG = LoggerFactory.getLogger(BookingService.class);

    /** Every setting the service reads, one record per concern. */
    public record Settings(
            BookingSettings booking,
            EngineTuning engine,
            FeedSettings feed,
            LifecycleSettings lifecycle,
            DashboardSettings dashboard,
            WebhookSettings webhooks) {}

    /**
     * The state the booking feed keeps current and the HTTP edge reads; beans of their own, so a test can replace the
     * view with a faulty one.
     */
    public record Views(BookingView bookings, DecisionAwaiter awaiter, IdempotencyKeys keys) {}

    private final BookingDecider decider;
    private final BookingActivities activities;
    private final ResumeForwarder resumes;
    private final LedgerForwarder ledger;
    private final WebhookRegistrations webhooks;
    private final WebhookStore webhookStore;
    private final List<ServiceComponent> components;

    public BookingService(
            Settings settings,
            KafkaClients kafka,
            PoolCatalog pools,
            Views views,
            BookingMetrics metrics,
            PrometheusRegistry registry) {
        List<ServiceComponent> all = new ArrayList<>();
        // One dead-letter path for every component, so every dead letter carries the same gpuaas_dlq_* headers.
        DeadLetterPublisher deadLetters = kafka.deadLetterPublisher(DEAD_LETTER_GROUP, registry);

        // The pure decision, on the pools service-kit loads.
        this.decider = new BookingDecider(pools, settings.booking().policy());

        // Topics in: every booking, decision and bound idempotency key; reclaims and notices for the dashboard.
        all.add(BookingFeed.replica(
                kafka, views.bookings(), views.awaiter(), views.keys(), deadLetters, settings.feed()));
        WorkloadActivity activity = new WorkloadActivity();
        all.add(dashboardFeed(kafka, activity, deadLetters));

        // The decision: commands → decisions and the lifecycle clock, one writer per pool.
        StreamsApplication engine = DecisionEngine.application(
                kafka,
                settings.booking(),
                settings.engine(),
                settings.lifecycle(),
                decider,
                pools,
                metrics,
                deadLetters,
                registry);
        all.add(engine);
        this.activities = new BookingActivities(
                new WorkloadPresenceReader(() -> DecisionEngine.workloadPresence(engine)),
                activity,
                longest(settings.lifecycle().endingSoonLeads()));

        // Calls out on a caller's behalf: Resume to idle-reclaimer, usage reads to metrics-gateway.
        HttpClient forwarding = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        DashboardSettings dashboard = settings.dashboard();
        this.resumes = new ResumeForwarder(forwarding, dashboard.reclaimerBase(), dashboard.resumeTimeout());
        this.ledger = new LedgerForwarder(forwarding, dashboard.ledgerBase(), dashboard.ledgerTimeout());

        // Loops out: notices to tenants' webhooks, once the registry of webhooks is whole.
        WebhookSettings hooks = settings.webhooks();
        WebhookRegistry endpoints = new WebhookRegistry();
        UrlPolicy policy = UrlPolicy.of(hooks.localHostSet());
        if (hooks.enabled()) {
            TopicReplica registryFeed = webhookRegistry(kafka, endpoints, deadLetters);
            TaskPool deliveries = new TaskPool("webhook-deliveries", StartOrder.DELIVERY_TASKS);
            all.add(registryFeed);
            all.add(deliveries);
            all.add(NoticeDelivery.consumer(
                    hooks,
                    settings.booking().applicationId(),
                    kafka,
                    endpoints,
                    policy,
                    deadLetters,
                    registry,
                    registryFeed,
                    deliveries));
            this.webhookStore = NoticeDelivery.store(kafka, endpoints);
        } else {
            this.webhookStore = null;
        }
        this.webhooks = new WebhookRegistrations(
                endpoints,
                webhookStore,
                hooks.enabled() ? Optional.of(new SecretBox(hooks.encryptionKey())) : Optional.empty(),
                policy,
                hooks.maxPerTenant(),
                Clock.systemUTC());
        this.components = List.copyOf(all);

        LOG.info(
                "booking-service: policy {}; resume forwarded to {}, usage to {}; {}",
                settings.booking().policy(),
                orOff(dashboard.reclaimerBase()),
                orOff(dashboard.ledgerBase()),
                hooks);
    }

    /** Every component, for service-kit's lifecycle and health. */
    @Override
    public List<ServiceComponent> components() {
        return components;
    }

    /** The pure decider, for the edge's checks before a command is published. */
    public BookingDecider decider() {
        return decider;
    }

    /** What is happening to a booking's workloads, for the dashboard. */
    public BookingActivities activities() {
        return activities;
    }

    public ResumeForwarder resumes() {
        return resumes;
    }

    public LedgerForwarder ledger() {
        return ledger;
    }

    /** The webhook registration API's service; answers 503 when webhooks are off. */
    public WebhookRegistrations webhooks() {
        return webhooks;
    }

    /** Closes the registration store's producer, after the lifecycle stopped the components. */
    @Override
    public void close() {
        if (webhookStore != null) {
            webhookStore.close();
        }
    }

    /** Both topics from the beginning (their retention bounds it), so a restarted instance shows the same. */
    private static TopicReplica dashboardFeed(
            KafkaClients kafka, WorkloadActivity activity, DeadLetterPublisher deadLetters) {
        return TopicReplica.builder(
                        "dashboard-feed",
                        () -> kafka.replicaConsumer("dashboard-feed"),
                        kafka.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.RECLAIM_EVENTS, StartAt.BEGINNING, activity::applyReclaim)
                .follow(Topics.NOTICES, StartAt.BEGINNING, activity::applyNotice)
                .startOrder(StartOrder.FEEDS)
                .build();
    }

    /** Every registered webhook, on every replica, from the beginning of the compacted topic. */
    private static TopicReplica webhookRegistry(
            KafkaClients kafka, WebhookRegistry endpoints, DeadLetterPublisher deadLetters) {
        return TopicReplica.builder(
                        "webhook-registry",
                        () -> kafka.replicaConsumer("webhook-registry"),
                        kafka.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.WEBHOOKS, StartAt.BEGINNING, endpoints::apply)
                .startOrder(StartOrder.FEEDS)
                .build();
    }

    private static Duration longest(List<Duration> leads) {
        return leads.stream().max(Duration::compareTo).orElse(Duration.ZERO);
    }

    private static String orOff(String base) {
        return base == null ? "(off)" : base;
    }
}
