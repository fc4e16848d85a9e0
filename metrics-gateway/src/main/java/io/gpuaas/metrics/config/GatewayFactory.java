package io.gpuaas.metrics.config;

import io.gpuaas.metrics.metrics.MetricsGatewayMetrics;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The plain business objects of the gateway as beans; none of them knows about Micronaut. */
@Factory
public class GatewayFactory {

    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Singleton
    TenantDirectory tenantDirectory(UsageSettings usage) {
        return new TenantDirectory(usage.namespaceTenants());
    }

    @Singleton
    QueueDepth queueDepth(TenantDirectory tenants) {
        return new QueueDepth(tenants);
    }

    @Singleton
    TenantUsage tenantUsage(TenantDirectory tenants, UsageSettings usage) {
        return new TenantUsage(tenants, usage.idleThreshold(), usage.staleAfter(), usage.maxGap());
    }

    @Singleton
    BookedUnits bookedUnits() {
        return new BookedUnits();
    }

    @Singleton
    ReclaimState reclaimState() {
        return new ReclaimState();
    }

    @Singleton
    ScrapeHealth scrapeHealth() {
        return new ScrapeHealth();
    }

    @Singleton
    PublishCounters publishCounters() {
        return new PublishCounters();
    }

    @Singleton
    MetricsGatewayMetrics metricsGatewayMetrics(
            QueueDepth queues,
            TenantUsage usage,
            BookedUnits bookings,
            ReclaimState reclaims,
            ScrapeHealth scrapes,
            PublishCounters publishing,
            Clock clock) {
        return new MetricsGatewayMetrics(queues, usage, bookings, reclaims, scrapes, publishing, clock);
    }
}
