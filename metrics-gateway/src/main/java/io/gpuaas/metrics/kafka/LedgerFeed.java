package io.gpuaas.metrics.kafka;

import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Component {@code ledger-feed}: the ledger's topic replica, and a one-key service-kit {@code ReconcileLoop}
 * ({@code ledger-snapshots}) that rebuilds the ledger's snapshot every {@code refresh} once the replica has caught up. Its replay (6 h of gpu-samples at start) does not gate readiness:
 * the rest of the gateway (KEDA, /metrics) serves meanwhile, the usage API answers 503 and the publisher sends
 * nothing; the health detail says whether it caught up. A broker failure (RECOVERING) or a dead replica still takes
 * readiness and liveness down, as for the other feeds.
 */
public final class LedgerFeed implements ServiceComponent {

    private static final String SNAPSHOTS = "ledger-snapshots";

    private final TopicReplica replica;
    private final LedgerInputs inputs;
    private final LedgerSnapshots snapshots;
    private final Supplier<Instant> horizon;
    private final Duration refresh;
    private final ReconcileLoop<String> snapshotLoop;
    private volatile boolean horizonKnown;

    /**
     * @param horizon   from when every input is whole (null: from offset 0), asked of the broker once
     * @param refresh   the longest a snapshot lags the fold
     */
    public LedgerFeed(
            TopicReplica replica,
            LedgerInputs inputs,
            LedgerSnapshots snapshots,
            Supplier<Instant> horizon,
            Duration refresh,
            PrometheusRegistry registry) {
        this.replica = replica;
        this.inputs = inputs;
        this.snapshots = snapshots;
        this.horizon = horizon;
        this.refresh = refresh;
        // One key, reconciled again every refresh: the kit's loop owns the thread, and a refresh that throws is
        // counted (gpuaas_reconcile_failures_total{loop="ledger-snapshots"}) and tried again after about a refresh.
        this.snapshotLoop = ReconcileLoop.<String>builder(SNAPSHOTS, key -> {
                    tick();
                    return Outcome.requeueAfter(refresh);
                })
                .backoff(refresh, refresh)
                .metrics(registry)
                .build();
    }

    @Override
    public String name() {
        return replica.name();
    }

    @Override
    public int startOrder() {
        return replica.startOrder();
    }

    @Override
    public void start() {
        replica.start();
        snapshotLoop.start();
        snapshotLoop.enqueue(SNAPSHOTS);
    }

    @Override
    public void stop(Duration grace) {
        snapshotLoop.stop(grace);
        replica.stop(grace);
    }

    /** Caught up when the first snapshot exists; never gates readiness (see the class comment). */
    @Override
    public ComponentHealth health() {
        ComponentHealth feed = replica.health();
        String detail = (caughtUp() ? "caught up; " : "replaying, the usage API answers 503 until caught up; ")
                + baseOnly()
                + feed.detail()
                + "; snapshots: "
                + snapshotLoop.health().detail();
        return new ComponentHealth(feed.state(), true, detail, feed.restarts());
    }

    /** The days served as their last record alone (BASE without DELTA: use since its cut is not counted), if any. */
    private String baseOnly() {
        var days = snapshots.current().map(l -> l.baseOnly()).orElse(java.util.Set.of());
        return days.isEmpty()
                ? ""
                : days.size() + " day(s) served as their last record alone (this replica's inputs start after its cut, "
                        + "later use of them is not counted), e.g. "
                        + days.iterator().next() + "; ";
    }

    /** Whether the ledger has a snapshot: the replica caught up and the first one was computed. */
    public boolean caughtUp() {
        return snapshots.current().isPresent();
    }

    private void tick() {
        if (!horizonKnown) {
            // Asked before the replay ends, so retention deleting what the replica already read rarely counts.
            inputs.horizon(horizon.get());
            horizonKnown = true;
        }
        if (replica.caughtUp()) {
            snapshots.refresh();
        }
    }
}
