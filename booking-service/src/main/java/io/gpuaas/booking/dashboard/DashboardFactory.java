package io.gpuaas.booking.dashboard;

import io.gpuaas.booking.config.LifecycleSettings;
import io.gpuaas.booking.stream.DecisionEngine;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.kit.runtime.TopicReplica.StartAt;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.net.http.HttpClient;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the dashboard's data: the {@code dashboard-feed} replica of reclaim events and notices, the read of the
 * lifecycle's Workload store through the decision engine, and the Resume and usage forwarders.
 */
@Factory
public class DashboardFactory {

    private static final Logger LOG = LoggerFactory.getLogger(DashboardFactory.class);

    @Singleton
    WorkloadActivity workloadActivity() {
        return new WorkloadActivity();
    }

    /** Both topics from the beginning (their retention bounds it), so a restarted instance shows the same. */
    @Singleton
    @Named("dashboard-feed")
    TopicReplica dashboardFeed(KafkaClients clients, WorkloadActivity activity, DeadLetterPublisher deadLetters) {
        return TopicReplica.builder(
                        "dashboard-feed",
                        () -> clients.replicaConsumer("dashboard-feed"),
                        clients.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.RECLAIM_EVENTS, StartAt.BEGINNING, activity::applyReclaim)
                .follow(Topics.NOTICES, StartAt.BEGINNING, activity::applyNotice)
                .startOrder(0)
                .build();
    }

    @Singleton
    BookingActivities bookingActivities(DecisionEngine engine, WorkloadActivity activity, LifecycleSettings lifecycle) {
        Duration lead =
                lifecycle.endingSoonLeads().stream().max(Duration::compareTo).orElse(Duration.ZERO);
        return new BookingActivities(new WorkloadPresenceReader(engine::workloadPresence), activity, lead);
    }

    @Singleton
    ResumeForwarder resumeForwarder(DashboardSettings settings) {
        LOG.info(
                "dashboard: resume forwarded to {}",
                settings.reclaimerBase() == null ? "(off)" : settings.reclaimerBase());
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new ResumeForwarder(http, settings.reclaimerBase(), settings.resumeTimeout());
    }

    @Singleton
    LedgerForwarder ledgerForwarder(DashboardSettings settings) {
        LOG.info("dashboard: usage forwarded to {}", settings.ledgerBase() == null ? "(off)" : settings.ledgerBase());
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new LedgerForwarder(http, settings.ledgerBase(), settings.ledgerTimeout());
    }
}
