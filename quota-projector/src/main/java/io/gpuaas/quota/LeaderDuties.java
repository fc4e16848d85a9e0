package io.gpuaas.quota;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.kit.k8s.LeaderDuty;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaderSchedule.Periodic;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ComponentHealth;
import io.gpuaas.kit.runtime.ComponentHealth.State;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.quota.k8s.Change;
import io.gpuaas.quota.k8s.ClusterCache;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.QuotaLoops;
import io.gpuaas.quota.k8s.WriterGate;
import io.gpuaas.quota.kafka.FeedWatermarks;
import io.gpuaas.quota.kafka.QueueStatePublisher;
import io.gpuaas.quota.kafka.WorkloadEventPublisher;
import io.gpuaas.quota.metrics.QuotaProjectorMetrics;
import io.gpuaas.quota.model.TransitionLedger;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What only the Lease holder does: write quota and show booking notices (it opens the {@link WriterGate} the reconcile
 * loops pass; {@code notices} enqueues every booking with a notice), publish Workload transitions and publish queue
 * state. {@link #lead()} and {@link #stepDown()} come from the Lease
 * (service-kit's {@code LeaseLeadership}); as a component it is RUNNING on a follower, STARTING on a new leader until
 * the Workload ledger is restored, and RECOVERING while that restore cannot read the topic (it retries by itself).
 * The term's periodic work (the invariant check, the ledger restore, the feed watermarks) runs on service-kit's
 * {@link LeaderSchedule}: kit-owned threads, from {@code lead} to {@code stepDown}, a check that throws counted and
 * run again.
 */
final class LeaderDuties implements ServiceComponent, LeaderDuty {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderDuties.class);
    /** A write still in flight when stepping down may finish this long; then the Lease goes anyway. */
    private static final Duration STEP_DOWN_GRACE = Duration.ofSeconds(2);
    /** How often a new leader looks whether the Workload ledger's replay has caught up. */
    private static final Duration RESTORE_POLL = Duration.ofMillis(200);

    private final ClusterCache cache;
    private final KafkaClients kafka;
    private final DeadLetterPublisher deadLetters;
    private final QuotaLoops loops;
    private final Runnable notices;
    private final WriterGate gate;
    private final Clock clock;
    private final QuotaProjectorMetrics metrics;
    private final int startOrder;
    private final Producer<String, WorkloadEvent> workloadProducer;
    private final Producer<String, QueueStateEvent> stateProducer;
    private final LeaderSchedule schedule;
    private volatile Term term;
    private volatile boolean stopped;

    LeaderDuties(
            ClusterCache cache,
            KafkaClients kafka,
            DeadLetterPublisher deadLetters,
            QuotaLoops loops,
            Runnable notices,
            WriterGate gate,
            Clock clock,
            QuotaProjectorMetrics metrics,
            PrometheusRegistry registry,
            int startOrder) {
        this.cache = cache;
        this.kafka = kafka;
        this.deadLetters = deadLetters;
        this.loops = loops;
        this.notices = notices;
        this.gate = gate;
        this.clock = clock;
        this.metrics = metrics;
        this.startOrder = startOrder;
        this.workloadProducer = kafka.producer("quota-projector-workloads", Topics.KUEUE_WORKLOADS);
        this.stateProducer = kafka.producer("quota-projector-state", Topics.QUOTA_STATE);
        this.schedule = LeaderSchedule.builder("leader-duties")
                .task(
                        "invariant",
                        Periodic.fixedDelay(Duration.ofSeconds(1), Duration.ofSeconds(1), loops::checkInvariant))
                .task("workload-ledger", new Periodic(() -> Duration.ZERO, this::restoreStep, RESTORE_POLL))
                .task("watermarks", Periodic.fixedDelay(Duration.ZERO, FeedWatermarks.PERIOD, this::watermarks))
                .stepDownGrace(Duration.ofSeconds(5))
                .metrics(registry)
                .build();
    }

    @Override
    public String name() {
        return "leader-duties";
    }

    @Override
    public int startOrder() {
        return startOrder;
    }

    @Override
    public void start() {
        // Nothing until the Lease is won; a follower keeps warm caches only.
    }

    /** Won the Lease: quota writes start at once, the Workload stream once its ledger is restored. */
    @Override
    public synchronized void lead() {
        if (stopped || term != null) {
            return;
        }
        LOG.info("leading: writing Kueue quota and publishing Workload events");
        gate.open();
        loops.takeover();
        notices.run();
        term = new Term();
        schedule.lead();
        metrics.leader(true);
    }

    /** Lost the Lease (or stopping): no write is in flight once this returns. */
    @Override
    public synchronized void stepDown() {
        gate.close(STEP_DOWN_GRACE);
        metrics.leader(false);
        // Waits for a run in flight (a restore step, a watermark) before the term's parts close.
        schedule.stepDown();
        Term current = term;
        term = null;
        if (current != null) {
            current.close();
        }
    }

    /** A task of the term: a no-op in the instant between two terms. */
    private Duration restoreStep() {
        Term current = term;
        return current == null ? null : current.restoreStep();
    }

    private void watermarks() {
        Term current = term;
        if (current != null) {
            current.watermarks();
        }
    }

    boolean leading() {
        return gate.isOpen();
    }

    @Override
    public ComponentHealth health() {
        if (stopped) {
            return new ComponentHealth(State.STOPPED, true, "stopped", 0);
        }
        Term current = term;
        return current == null ? new ComponentHealth(State.RUNNING, true, "follower", 0) : current.health();
    }

    @Override
    public void stop(Duration grace) {
        stopped = true;
        stepDown();
        schedule.stop(grace);
        // The producers are the process's (KafkaClients.producer): closed with it, not with one leadership.
    }

    /** One leadership term of the Workload stream and the queue state; its steps run on the schedule's threads. */
    private final class Term {
        private final TransitionLedger ledger = new TransitionLedger();
        private final TopicReplica restore = WorkloadEventPublisher.restoring(ledger, kafka, deadLetters);
        private final WorkloadEventPublisher workloads = new WorkloadEventPublisher(
                workloadProducer, kafka.topic(Topics.KUEUE_WORKLOADS), ledger, clock, metrics);
        private final QueueStatePublisher states =
                new QueueStatePublisher(stateProducer, kafka.topic(Topics.QUOTA_STATE), cache, clock, metrics);
        private final FeedWatermarks watermarks = new FeedWatermarks(
                workloadProducer,
                kafka.topic(Topics.KUEUE_WORKLOADS),
                "quota-projector",
                // The watermark vouches for the Workload feed alone: a LocalQueue watch reconnecting loses no
                // Workload change, and waiting on it would hold back no-show releases for nothing.
                () -> cache.watching(Kind.WORKLOAD),
                clock);
        private final Consumer<Change> workloadListener = workloads::onChange;
        private final Consumer<Change> stateListener = states::onChange;
        private boolean replaying;
        private volatile boolean restored;

        /**
         * One look at the ledger's replay: started on the first, done (null: not run again this term) once the replay
         * caught up and the Workload stream and queue state took over from it.
         */
        private synchronized Duration restoreStep() {
            if (!replaying) {
                restore.start();
                replaying = true;
            }
            if (!restore.caughtUp()) {
                LOG.debug("workload ledger: {}", restore.health().detail());
                return RESTORE_POLL;
            }
            restore.stop(Duration.ofSeconds(2));
            LOG.info("workload ledger restored: {} workloads", ledger.size());
            // Deletions missed while nobody led are judged against the restored ledger alone, before any new claim.
            workloads.publishMissedDeletions(cache.list(Kind.WORKLOAD));
            // Listen first, then replay the cache: a transition seen twice is claimed once by the ledger.
            cache.addListener(workloadListener);
            cache.list(Kind.WORKLOAD).forEach(w -> workloads.onChange(new Change(Kind.WORKLOAD, null, w)));
            cache.addListener(stateListener);
            states.start();
            // After the cache's replay went to the producer: each partition's first watermark follows it.
            watermarks.publish();
            restored = true;
            return null;
        }

        private void watermarks() {
            if (restored) {
                watermarks.publish();
            }
        }

        private ComponentHealth health() {
            if (restored) {
                // The queue-state loop retries a queue whose publish failed; several failures in a row take it out.
                ComponentHealth published = states.health();
                return published.state() == State.RECOVERING
                        ? new ComponentHealth(State.RECOVERING, true, "leader; queue state: " + published.detail(), 0)
                        : new ComponentHealth(State.RUNNING, true, "leader", 0);
            }
            ComponentHealth replay = restore.health();
            State state = replay.state() == State.RECOVERING ? State.RECOVERING : State.STARTING;
            return new ComponentHealth(
                    state, false, "leader restoring the workload ledger: " + replay.detail(), replay.restarts());
        }

        private synchronized void close() {
            if (replaying && !restored) {
                restore.stop(Duration.ofSeconds(2));
            }
            cache.removeListener(workloadListener);
            cache.removeListener(stateListener);
            states.close();
        }
    }
}
