package io.gpuaas.reclaim.stream;

import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.StreamsApplication;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.k8s.PodOwnerIndex;
import io.gpuaas.reclaim.k8s.WorkloadDirectory;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.micronaut.context.annotation.Value;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reclaim topology as a service component, supervised by the kit's {@link StreamsApplication}. The first client
 * starts once the informers have listed (an unknown pod before that would only mean "not cached yet"), or after
 * {@code informer-sync-timeout} anyway; a client in ERROR, or whose thread died, is replaced in-process after a
 * backoff (RECOVERING meanwhile); on stop it closes so the last transaction commits and no window is half-written.
 */
@Singleton
public class ReclaimStreams implements ServiceComponent {

    public static final String NAME = "reclaim-streams";

    /** Before the applier (100): the applier stops reading intents first, then the stream commits and closes. */
    public static final int START_ORDER = 10;

    private static final Logger LOG = LoggerFactory.getLogger(ReclaimStreams.class);

    private final StreamsApplication application;

    public ReclaimStreams(
            KafkaClients clients,
            ReclaimerSettings settings,
            PodOwnerIndex owners,
            WorkloadDirectory directory,
            ReclaimerMetrics metrics,
            PrometheusRegistry registry,
            @Value("${gpuaas.reclaimer.state-dir:}") String stateDir)
            throws IOException {
        ReclaimDecider decider = new ReclaimDecider(settings.mode(), settings.dryRun(), metrics, Clock.systemUTC());
        Path dir = stateDir.isBlank() ? Files.createTempDirectory("idle-reclaimer-") : Path.of(stateDir);
        String prefix = clients.settings().topicPrefix();
        Topology topology = ReclaimTopology.build(prefix, owners, directory, decider, metrics);
        this.application = StreamsApplication.builder(
                        NAME,
                        () -> topology,
                        ReclaimPipeline.properties(
                                clients.streamsConfig(settings.applicationId()),
                                dir,
                                clients.deadLetterPublisher(settings.applicationId(), registry)))
                .startWhen(
                        "informers synced", () -> owners.synced() && directory.synced(), settings.informerSyncTimeout())
                .startOrder(START_ORDER)
                .metrics(registry)
                .build();
        LOG.info("idle-reclaimer: mode={} dryRun={} settings={}", settings.mode(), settings.dryRun(), settings);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int startOrder() {
        return START_ORDER;
    }

    @Override
    public void start() {
        application.start();
    }

    /** Closes the client within the grace (the open transaction commits) and leaves the group. */
    @Override
    public void stop(Duration grace) {
        application.stop(grace);
    }

    @Override
    public ComponentHealth health() {
        return application.health();
    }
}
