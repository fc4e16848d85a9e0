package io.gpuaas.kit.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
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
 * One writer among the replicas of a service: the holder of a coordination.k8s.io Lease runs the service's
 * {@link LeaderDuty}s, the others stand by with warm state so a takeover is quick. As a component it campaigns once
 * {@code ready} says the service's inputs have caught up (a leader acting on a partial view would act wrongly),
 * campaigns again whenever an election ends, and on stop steps down first and then releases the Lease. It is
 * {@code RUNNING} on the leader and on every follower alike: a follower is ready to serve what it projects.
 *
 * <p>fabric8 calls {@code onStartLeading} inside its synchronized acquire-or-renew step, so a slow start would stop
 * this replica renewing and let another take the Lease while this one still starts leading. The callbacks therefore
 * run, in order, on one thread of their own: renewals go on meanwhile, and a step-down that arrives during a start
 * runs right after it. A step-down without a start before it is skipped. Duties start in list order and stop in
 * reverse.
 *
 * <p>With the election disabled no client is needed: the duties start once {@code ready}, and stop on stop.
 */
public final class LeaseLeadership implements ServiceComponent {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseLeadership.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration READY_POLL = Duration.ofMillis(100);

    private final KubernetesClient client;
    private final String name;
    private final LeaseSettings settings;
    private final String identity;
    private final List<LeaderDuty> duties;
    private final BooleanSupplier ready;
    private final int startOrder;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final ExecutorService callbacks;
    private LeaderElectionConfig config;
    private CompletableFuture<?> election;
    private boolean closed;
    private volatile boolean campaigning;
    private volatile boolean leading;
    private volatile String leader = "unknown";
    private Thread starter;

    /**
     * @param client     the API server; unused (may be null) when the election is disabled
     * @param name       component name, e.g. {@code quota-leadership}; names the threads too
     * @param duties     what the leader runs
     * @param ready      whether this replica may campaign yet; polled until it says so
     * @param startOrder after the duties' own components, so they are started before they lead and stopped after
     */
    public LeaseLeadership(
            KubernetesClient client,
            String name,
            LeaseSettings settings,
            List<LeaderDuty> duties,
            BooleanSupplier ready,
            int startOrder) {
        LeaseSettings.check(settings);
        if (settings.enabled() && client == null) {
            throw new IllegalArgumentException(name + ": a Lease election needs a Kubernetes client");
        }
        this.client = client;
        this.name = name;
        this.settings = settings;
        this.identity = identity(settings);
        this.duties = List.copyOf(duties);
        this.ready = ready;
        this.startOrder = startOrder;
        this.callbacks = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().daemon().name(name + "-callbacks").factory());
    }

    /**
     * The configured identity, else {@code $HOSTNAME-<8 random hex>}: the host name keeps the holder readable (a
     * pod's name), the suffix keeps two processes on one host (the local stack's replicas, a restarted container)
     * from claiming to be the same holder.
     */
    static String identity(LeaseSettings settings) {
        if (settings.identity() != null && !settings.identity().isBlank()) {
            return settings.identity();
        }
        String host = System.getenv().getOrDefault("HOSTNAME", "replica");
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    /** The holder identity this replica campaigns with. */
    public String identity() {
        return identity;
    }

    @Override
    public synchronized void start() {
        if (starter == null && !closed) {
            starter = Thread.ofPlatform().daemon().name(name + "-start").start(this::campaignWhenReady);
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
            LOG.info("{}: leader election disabled, {} leads", name, identity);
            campaigning = true;
            onCallbackThread(this::lead);
            return;
        }
        String namespace = settings.namespace() != null && !settings.namespace().isBlank()
                ? settings.namespace()
                : client.getNamespace() != null ? client.getNamespace() : "default";
        config = new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(new LeaseLock(namespace, settings.leaseName(), identity))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(
                        () -> onCallbackThread(this::lead), () -> onCallbackThread(this::stepDown), this::newLeader))
                .build();
        LOG.info("{} campaigning for Lease {}/{}", identity, namespace, settings.leaseName());
        campaigning = true;
        campaign();
    }

    /**
     * fabric8's LeaderElector is single-use: once it has lost the Lease (renewals failed past the renew deadline, or
     * another replica holds it) its future completes and it never campaigns again. A replica cut off from the API
     * server for a few seconds would then stay a follower for good, and nobody would lead once the other replica
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
                LOG.info("{} no longer holds Lease {}: campaigning again", identity, settings.leaseName());
                CompletableFuture.delayedExecutor(settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)
                        .execute(this::campaign);
            }
        });
    }

    private void lead() {
        if (leading) {
            return;
        }
        leading = true;
        LOG.info("{} leads {}", identity, name);
        for (LeaderDuty duty : duties) {
            try {
                duty.lead();
            } catch (RuntimeException e) {
                LOG.error("{}: a leader duty did not start", name, e);
            }
        }
    }

    private void stepDown() {
        if (!leading) {
            return;
        }
        leading = false;
        for (LeaderDuty duty : duties.reversed()) {
            try {
                duty.stepDown();
            } catch (RuntimeException e) {
                LOG.error("{}: a leader duty did not stop cleanly", name, e);
            }
        }
        LOG.info("{} stepped down from {}", identity, name);
    }

    private void newLeader(String holder) {
        leader = holder;
        LOG.info("leader of Lease {} is {}", settings.leaseName(), holder);
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
            return new ComponentHealth(State.STARTING, false, "waiting for its inputs before campaigning", 0);
        }
        String detail = leading ? identity + " leads" : identity + " follows " + leader;
        return new ComponentHealth(State.RUNNING, true, detail, 0);
    }

    /** Steps down (no duty runs after that), then releases the Lease so another replica may take it at once. */
    @Override
    public void stop(Duration grace) {
        CompletableFuture<?> current;
        synchronized (this) {
            closed = true;
            current = election;
        }
        stopping.countDown();
        // Runs after a start that is under way, so no duty runs once this returns.
        onCallbackThread(this::stepDown);
        callbacks.shutdown();
        try {
            if (!callbacks.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("{}: leader callbacks still running {} after close", name, CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (current != null) {
            current.cancel(true); // releases the Lease
        }
    }
}
