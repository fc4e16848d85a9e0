package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.gpuaas.quota.config.LeaderElectionSettings;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Only the holder of a coordination.k8s.io Lease writes Kueue objects and publishes Workload events; the other
 * replicas keep warm caches so a takeover is quick. The lease is released on shutdown.
 */
public final class Leadership implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    private final KubernetesClient client;
    private final LeaderElectionSettings settings;
    private final String identity;
    private CompletableFuture<?> election;

    public Leadership(KubernetesClient client, LeaderElectionSettings settings, String identity) {
        this.client = client;
        this.settings = settings;
        this.identity = identity;
    }

    public void start(Runnable onStartLeading, Runnable onStopLeading) {
        if (!settings.enabled()) {
            LOG.info("leader election disabled: {} writes", identity);
            onStartLeading.run();
            return;
        }
        String namespace = settings.namespace() != null ? settings.namespace()
                : client.getNamespace() != null ? client.getNamespace() : "default";
        var config = new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(new LeaseLock(namespace, settings.leaseName(), identity))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(onStartLeading, onStopLeading,
                        leader -> LOG.info("quota-projector leader is {}", leader)))
                .build();
        LOG.info("{} campaigning for Lease {}/{}", identity, namespace, settings.leaseName());
        election = client.leaderElector().withConfig(config).build().start();
    }

    @Override
    public void close() {
        if (election != null) {
            election.cancel(true);
        }
    }
}
