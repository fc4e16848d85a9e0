package io.gpuaas.metrics.config;

import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.Sealing;
import io.gpuaas.metrics.metrics.LedgerMetrics;
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
    BookedUnits bookedUnits(PoolCatalog pools) {
        return new BookedUnits(pools);
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

    @Singleton
    LedgerInputs ledgerInputs(PoolCatalog pools, UsageSettings usage) {
        return new LedgerInputs(pools, usage.idleThreshold(), usage.maxGap());
    }

    @Singleton
    PublishedDays publishedDays() {
        return new PublishedDays();
    }

    @Singleton
    LedgerSnapshots ledgerSnapshots(
            LedgerInputs ledger, PublishedDays published, LedgerSettings settings, UsageSettings usage) {
        if (settings.cutLag().compareTo(usage.maxGap()) < 0) {
            // A gap is charged when the next reading comes, up to max-gap later: a shorter lag publishes before it.
            throw new IllegalArgumentException("gpuaas.metrics-gateway.ledger.cut-lag (" + settings.cutLag()
                    + ") must be at least gpuaas.metrics-gateway.usage.max-gap (" + usage.maxGap() + ")");
        }
        return new LedgerSnapshots(ledger, published, new Sealing(settings.sealAfter(), settings.cutLag()));
    }

    @Singleton
    LedgerMetrics ledgerMetrics(LedgerSnapshots ledger) {
        return new LedgerMetrics(ledger);
    }
}
