package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.gpuaas.quota.config.LeaderElectionSettings;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Only the holder of a coordination.k8s.io Lease writes Kueue objects and publishes Workload events; the other
 * replicas keep warm caches so a takeover is quick. A replica that loses the Lease campaigns again. The lease is
 * released on shutdown.
 *
 * <p>fabric8 calls {@code onStartLeading} inside its synchronized acquire-or-renew step, so a slow start (the duties
 * read the Workload topic to its end first) would stop this replica renewing and let another take the Lease while
 * this one still starts leading. The callbacks therefore run, in order, on one thread of their own: renewals go on
 * meanwhile, and a step-down that arrives during a start runs right after it.
 */
public final class Leadership implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final KubernetesClient client;
    private final LeaderElectionSettings settings;
    private final String identity;
    private LeaderElectionConfig config;
    private CompletableFuture<?> election;
    private boolean closed;
    private final ExecutorService callbacks = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("quota-leader-callbacks").factory());

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
        config = new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(new LeaseLock(namespace, settings.leaseName(), identity))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(() -> onCallbackThread(onStartLeading),
                        () -> onCallbackThread(onStopLeading),
                        leader -> LOG.info("quota-projector leader is {}", leader)))
                .build();
        LOG.info("{} campaigning for Lease {}/{}", identity, namespace, settings.leaseName());
        campaign();
    }

    /**
     * fabric8's LeaderElector is single-use: once it has lost the Lease (renewals failed past the renew deadline, or
     * another replica holds it) its future completes and it never campaigns again. A replica cut off from the API
     * server for a few seconds would then stay a follower for good, and nobody would write once the other replica
     * goes. So each time an election ends, while not closed, a fresh elector campaigns; the old one has stopped by then
     * (its future completes only after it stepped down), so two never run at once.
     */
    private void campaign() {
        CompletableFuture<?> next;
        synchronized (this) {
            if (closed) {
                return;
            }
            next = client.leaderElector().withConfig(config).build().start();
            election = next;
        }
        // One retry period before the next campaign: an elector that ends at once (say, a rejected Lease write)
        // must not turn into a busy loop against the API server.
        next.whenComplete((ignored, error) -> {
            if (!isClosed()) {
                LOG.info("{} no longer holds the Lease: campaigning again", identity);
                CompletableFuture.delayedExecutor(settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)
                        .execute(this::campaign);
            }
        });
    }

    private void onCallbackThread(Runnable callback) {
        try {
            callbacks.execute(callback);
        } catch (RejectedExecutionException closing) {
            callback.run(); // the step-down of close() itself, after the thread was told to finish
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        CompletableFuture<?> current;
        synchronized (this) {
            closed = true;
            current = election;
        }
        if (current != null) {
            current.cancel(true);
        }
        // Lets a start or step-down that is under way finish, so nothing writes after close returns.
        callbacks.shutdown();
        try {
            if (!callbacks.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("leader callbacks still running {} after close", CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
