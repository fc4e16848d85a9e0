package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.quota.config.LeaderElectionSettings;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Only the holder of a coordination.k8s.io Lease writes Kueue objects and publishes Workload events; the other
 * replicas keep warm caches so a takeover is quick. As a component it campaigns once {@code ready} says the caches
 * and replicas have caught up (a leader planning from a partial view would drain every tenant it has not read yet),
 * campaigns again whenever an election ends, and on stop steps down first and then releases the Lease.
 *
 * <p>fabric8 calls {@code onStartLeading} inside its synchronized acquire-or-renew step, so a slow start would stop
 * this replica renewing and let another take the Lease while this one still starts leading. The callbacks therefore
 * run, in order, on one thread of their own: renewals go on meanwhile, and a step-down that arrives during a start
 * runs right after it. A step-down without a start before it is skipped.
 */
public final class Leadership implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration READY_POLL = Duration.ofMillis(100);

    private final KubernetesClient client;
    private final LeaderElectionSettings settings;
    private final String identity;
    private final Runnable onStartLeading;
    private final Runnable onStopLeading;
    private final BooleanSupplier ready;
    private final int startOrder;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final ExecutorService callbacks = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("quota-leader-callbacks").factory());
    private LeaderElectionConfig config;
    private CompletableFuture<?> election;
    private boolean closed;
    private volatile boolean campaigning;
    private volatile boolean leading;
    private volatile String leader = "unknown";
    private Thread starter;

    /**
     * @param ready whether this replica may campaign yet; polled until it says so
     */
    public Leadership(KubernetesClient client, LeaderElectionSettings settings, String identity,
                      Runnable onStartLeading, Runnable onStopLeading, BooleanSupplier ready, int startOrder) {
        this.client = client;
        this.settings = settings;
        this.identity = identity;
        this.onStartLeading = onStartLeading;
        this.onStopLeading = onStopLeading;
        this.ready = ready;
        this.startOrder = startOrder;
    }

    @Override
    public String name() {
        return "quota-leadership";
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public synchronized void start() {
        if (starter == null && !closed) {
            starter = Thread.ofPlatform().daemon().name("quota-leadership-start").start(this::campaignWhenReady);
        }
    }

    private void campaignWhenReady() {
        try {
            while (!ready.getAsBoolean()) {
                if (stopping.await(READY_POLL.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            return;
        }
        if (!settings.enabled()) {
            LOG.info("leader election disabled: {} writes", identity);
            campaigning = true;
            onCallbackThread(this::lead);
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
                .withLeaderCallbacks(new LeaderCallbacks(() -> onCallbackThread(this::lead),
                        () -> onCallbackThread(this::stepDown), this::newLeader))
                .build();
        LOG.info("{} campaigning for Lease {}/{}", identity, namespace, settings.leaseName());
        campaigning = true;
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

    private void lead() {
        leading = true;
        onStartLeading.run();
    }

    private void stepDown() {
        if (leading) {
            leading = false;
            onStopLeading.run();
        }
    }

    private void newLeader(String holder) {
        leader = holder;
        LOG.info("quota-projector leader is {}", holder);
    }

    private void onCallbackThread(Runnable callback) {
        try {
            callbacks.execute(callback);
        } catch (RejectedExecutionException closing) {
            callback.run(); // the step-down of stop() itself, after the thread was told to finish
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /** Whether this replica leads now (its duties started and not stopped). */
    public boolean leading() {
        return leading;
    }

    @Override
    public ComponentHealth health() {
        if (isClosed()) {
            return new ComponentHealth(State.STOPPED, campaigning, "stopped", 0);
        }
        if (!campaigning) {
            return new ComponentHealth(State.STARTING, false, "waiting for the caches and the bookings", 0);
        }
        String detail = leading ? identity + " leads" : identity + " follows " + leader;
        return new ComponentHealth(State.RUNNING, true, detail, 0);
    }

    /** Steps down (nothing writes after that), then releases the Lease. */
    @Override
    public void stop(Duration grace) {
        CompletableFuture<?> current;
        synchronized (this) {
            closed = true;
            current = election;
        }
        stopping.countDown();
        // Runs after a start that is under way, so nothing writes once this returns.
        onCallbackThread(this::stepDown);
        callbacks.shutdown();
        try {
            if (!callbacks.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("leader callbacks still running {} after close", CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (current != null) {
            current.cancel(true); // releases the Lease: another replica may take it at once
        }
    }
}
