package io.gpuaas.reclaim.stream;

import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.k8s.PodOwnerIndex;
import io.gpuaas.reclaim.k8s.WorkloadDirectory;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.PreDestroy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the reclaim topology. It starts once the informers have listed (an unknown pod before that would only mean
 * "not cached yet"), and closes on shutdown so the last transaction commits and no window is half-written.
 */
@Context
public class ReclaimStreams {

    private static final Logger LOG = LoggerFactory.getLogger(ReclaimStreams.class);

    private final KafkaStreams streams;
    private final PodOwnerIndex owners;
    private final WorkloadDirectory directory;
    private final Duration syncTimeout;

    public ReclaimStreams(
            KafkaClients clients,
            ReclaimerSettings settings,
            PodOwnerIndex owners,
            WorkloadDirectory directory,
            ReclaimerMetrics metrics,
            PrometheusRegistry registry,
            @Value("${gpuaas.reclaimer.state-dir:}") String stateDir)
            throws java.io.IOException {
        this.owners = owners;
        this.directory = directory;
        this.syncTimeout = settings.informerSyncTimeout();
        ReclaimDecider decider = new ReclaimDecider(settings.mode(), settings.dryRun(), metrics, Clock.systemUTC());
        Path dir = stateDir.isBlank() ? Files.createTempDirectory("idle-reclaimer-") : Path.of(stateDir);
        streams = ReclaimPipeline.create(
                clients.streamsConfig(settings.applicationId()),
                clients.settings().topicPrefix(),
                dir,
                owners,
                directory,
                decider,
                metrics,
                clients.deadLetterPublisher(settings.applicationId(), registry));
        LOG.info("idle-reclaimer: mode={} dryRun={} settings={}", settings.mode(), settings.dryRun(), settings);
    }

    @EventListener
    void onStartup(StartupEvent event) {
        Thread.ofVirtual().name("reclaim-streams-start").start(this::startWhenSynced);
    }

    private void startWhenSynced() {
        long deadline = System.nanoTime() + syncTimeout.toNanos();
        while (!(owners.synced() && directory.synced()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!(owners.synced() && directory.synced())) {
            LOG.warn("informers not synced after {}; starting anyway, unknown pods are ignored", syncTimeout);
        }
        streams.start();
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public Map<String, Object> details() {
        return Map.of("state", streams.state().name());
    }

    @PreDestroy
    void close() {
        // Leaving the group hands the partitions over at once instead of after the session timeout.
        streams.close(new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(10)));
    }
}
