package io.gpuaas.quota;

import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.quota.QueueStateEvent;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.kit.k8s.LeaderDuty;
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
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What only the Lease holder does: write quota and show booking notices (it opens the {@link WriterGate} the reconcile
 * loops pass; {@code notices} enqueues every booking with a notice), publish Workload transitions and publish queue
 * state. {@link #lead()} and {@link #stepDown()} come from the Lease
 * (service-kit's {@code LeaseLeadership}); as a component it is RUNNING on a follower, STARTING on a new leader until
 * the Workload ledger is restored, and RECOVERING while that restore cannot read the topic (it retries by itself).
 */
final class LeaderDuties implements ServiceComponent, LeaderDuty {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderDuties.class);
    /** A write still in flight when stepping down may finish this long; then the Lease goes anyway. */
    private static final Duration STEP_DOWN_GRACE = Duration.ofSeconds(2);

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
        this.workloadProducer = new KafkaProducer<>(
                kafka.producerConfig("quota-projector-workloads"),
                new StringSerializer(),
                Topics.KUEUE_WORKLOADS.valueSerde().serializer());
        this.stateProducer = new KafkaProducer<>(
                kafka.producerConfig("quota-projector-state"),
                new StringSerializer(),
                Topics.QUOTA_STATE.valueSerde().serializer());
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
        term.thread.start();
        metrics.leader(true);
    }

    /** Lost the Lease (or stopping): no write is in flight once this returns. */
    @Override
    public synchronized void stepDown() {
        gate.close(STEP_DOWN_GRACE);
        metrics.leader(false);
        Term current = term;
        term = null;
        if (current != null) {
            current.close();
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
        workloadProducer.close(grace);
        stateProducer.close(grace);
    }

    /** One leadership term of the Workload stream and the queue state, on a thread of its own. */
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
        private final ScheduledExecutorService invariant = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("quota-invariant").factory());
        private final Thread thread =
                Thread.ofPlatform().daemon().name("quota-leader-term").unstarted(this::run);
        private volatile boolean restored;
        private volatile boolean closing;

        private void run() {
            invariant.scheduleWithFixedDelay(this::checkInvariant, 1, 1, TimeUnit.SECONDS);
            restore.start();
            try {
                while (!closing && !restore.awaitCaughtUp(Duration.ofSeconds(1))) {
                    LOG.debug("workload ledger: {}", restore.health().detail());
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                restore.stop(Duration.ofSeconds(2));
            }
            if (closing) {
                return;
            }
            LOG.info("workload ledger restored: {} workloads", ledger.size());
            // Deletions missed while nobody led are judged against the restored ledger alone, before any new claim.
            workloads.publishMissedDeletions(cache.list(Kind.WORKLOAD));
            // Listen first, then replay the cache: a transition seen twice is claimed once by the ledger.
            cache.addListener(workloadListener);
            cache.list(Kind.WORKLOAD).forEach(w -> workloads.onChange(new Change(Kind.WORKLOAD, null, w)));
            cache.addListener(stateListener);
            states.start();
            restored = true;
            // After the cache's replay went to the producer: each partition's first watermark follows it.
            invariant.scheduleWithFixedDelay(
                    watermarks::publish, 0, FeedWatermarks.PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        }

        private void checkInvariant() {
            try {
                loops.checkInvariant();
            } catch (RuntimeException e) {
                LOG.warn("invariant check failed: {}", e.toString());
            }
        }

        private ComponentHealth health() {
            if (restored) {
                return new ComponentHealth(State.RUNNING, true, "leader", 0);
            }
            ComponentHealth replay = restore.health();
            State state = replay.state() == State.RECOVERING ? State.RECOVERING : State.STARTING;
            return new ComponentHealth(
                    state, false, "leader restoring the workload ledger: " + replay.detail(), replay.restarts());
        }

        private void close() {
            closing = true;
            invariant.shutdownNow();
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            cache.removeListener(workloadListener);
            cache.removeListener(stateListener);
            states.close();
        }
    }
}
