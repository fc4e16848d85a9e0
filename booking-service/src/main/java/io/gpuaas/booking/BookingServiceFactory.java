package io.gpuaas.booking;

import io.gpuaas.booking.config.BookingSettings;
import io.gpuaas.booking.config.EngineTuning;
import io.gpuaas.booking.config.FeedSettings;
import io.gpuaas.booking.config.LifecycleSettings;
import io.gpuaas.booking.dashboard.BookingActivities;
import io.gpuaas.booking.dashboard.DashboardSettings;
import io.gpuaas.booking.dashboard.LedgerForwarder;
import io.gpuaas.booking.dashboard.ResumeForwarder;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.DecisionAwaiter;
import io.gpuaas.booking.kafka.IdempotencyKeys;
import io.gpuaas.booking.metrics.BookingMetrics;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.webhook.WebhookRegistrations;
import io.gpuaas.booking.webhook.WebhookSettings;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.kit.kafka.KafkaClients;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;

/**
 * The {@link BookingService} in the container. It is the service's composition root (a service-kit
 * {@code ServiceComponents}): service-kit's {@code ServiceLifecycle} starts its components once the context is up and
 * stops them in reverse on shutdown, then the context closes it. The HTTP controllers read what it built through the
 * beans below; the views the booking feed keeps current ({@link BookingView}, {@link DecisionAwaiter},
 * {@link IdempotencyKeys}) are beans of their own. Nothing else of the service is wired elsewhere.
 */
@Factory
public class BookingServiceFactory {

    @Singleton
    @Bean(preDestroy = "close")
    BookingService bookingService(
            BookingSettings booking,
            EngineTuning engine,
            FeedSettings feed,
            LifecycleSettings lifecycle,
            DashboardSettings dashboard,
            WebhookSettings webhooks,
            KafkaClients kafka,
            PoolCatalog pools,
            BookingView view,
            DecisionAwaiter awaiter,
            IdempotencyKeys keys,
            BookingMetrics metrics,
            PrometheusRegistry registry) {
        return new BookingService(
                new BookingService.Settings(booking, engine, feed, lifecycle, dashboard, webhooks),
                kafka,
                pools,
                new BookingService.Views(view, awaiter, keys),
                metrics,
                registry);
    }

    // What the HTTP edge reads.

    @Singleton
    BookingDecider bookingDecider(BookingService service) {
        return service.decider();
    }

    @Singleton
    BookingActivities bookingActivities(BookingService service) {
        return service.activities();
    }

    @Singleton
    ResumeForwarder resumeForwarder(BookingService service) {
        return service.resumes();
    }

    @Singleton
    LedgerForwarder ledgerForwarder(BookingService service) {
        return service.ledger();
    }

    @Singleton
    WebhookRegistrations webhookRegistrations(BookingService service) {
        return service.webhooks();
    }
}
