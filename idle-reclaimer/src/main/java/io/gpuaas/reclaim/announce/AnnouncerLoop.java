package io.gpuaas.reclaim.announce;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.reclaim.k8s.ReclaimAnnouncer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;

/**
 * ReclaimPending onto the workload objects, built from plain arguments (the service, the tests): a replica of
 * {@code notices} and {@code reclaim-intents} (only its withdrawals matter) keeps {@link ReclaimAnnouncements}, and a
 * reconcile loop keyed by workload makes each object show what it says. Outside any stream transaction, as every
 * Kubernetes write of this service.
 *
 * @param announcements what the feed read: per workload the latest notice and the latest withdrawn window
 * @param loop          {@code reclaim-announcer}, one workload at a time through {@link ReclaimAnnouncer}
 * @param feed          {@code reclaim-announcements}, every notice and withdrawal since the topics' retention
 */
public record AnnouncerLoop(ReclaimAnnouncements announcements, ReconcileLoop<WorkloadRef> loop, TopicReplica feed) {

    static final String FEED = "reclaim-announcements";
    static final String LOOP = "reclaim-announcer";
    private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);
    private static final Duration REFUSED_RETRY = Duration.ofSeconds(5);

    public static AnnouncerLoop create(ReclaimAnnouncer announcer, KafkaClients clients, PrometheusRegistry registry) {
        ReclaimAnnouncements announcements = new ReclaimAnnouncements();
        ReconcileLoop<WorkloadRef> loop = loop(announcer, announcements, registry);
        return new AnnouncerLoop(announcements, loop, feed(clients, announcements, loop, registry));
    }

    /** Both components; the loop is started first and stopped last (equal start order, list order). */
    public List<ServiceComponent> components() {
        return List.of(loop, feed);
    }

    /**
     * The loop: one workload at a time; an API error is retried after a while without counting as a failure of the
     * loop (anything else thrown is the loop's per-key backoff).
     */
    private static ReconcileLoop<WorkloadRef> loop(
            ReclaimAnnouncer announcer, ReclaimAnnouncements announcements, PrometheusRegistry registry) {
        return ReconcileLoop.<WorkloadRef>builder(LOOP, ref -> {
                    try {
                        announcer.reconcile(ref, announcements.current(ref));
                        return ReconcileLoop.Outcome.done();
                    } catch (KubernetesClientException e) {
                        // One object the API server refuses must not take the service out of readiness (as the
                        // applier's retries): try again later, a conflict at once.
                        return ReconcileLoop.Outcome.requeueAfter(e.getCode() == 409 ? CONFLICT_RETRY : REFUSED_RETRY);
                    }
                })
                .workers(2)
                // A resume is seen on the object, not on a topic: announced workloads are looked at every minute.
                .resync(Duration.ofMinutes(1), announcements::announcedWorkloads)
                .metrics(registry)
                .build();
    }

    /** The feed: every notice and withdrawal since the topics' retention, then what comes. */
    private static TopicReplica feed(
            KafkaClients clients,
            ReclaimAnnouncements announcements,
            ReconcileLoop<WorkloadRef> loop,
            PrometheusRegistry registry) {
        return TopicReplica.builder(
                        FEED,
                        () -> clients.replicaConsumer(FEED),
                        clients.settings().topicPrefix(),
                        clients.deadLetterPublisher(FEED, registry))
                .follow(
                        Topics.NOTICES,
                        TopicReplica.StartAt.BEGINNING,
                        (key, notice) -> onNotice(notice, announcements, loop))
                .follow(
                        Topics.RECLAIM_INTENTS,
                        TopicReplica.StartAt.BEGINNING,
                        (key, intent) -> onIntent(intent, announcements, loop))
                .build();
    }

    private static void onNotice(Notice notice, ReclaimAnnouncements announcements, ReconcileLoop<WorkloadRef> loop) {
        switch (notice) {
            case Notice.ReclaimPending pending -> {
                announcements.announced(pending);
                loop.enqueue(pending.workload());
            }
            case Notice.BookingEndingSoon booking -> {}
            case Notice.NoShowWarning booking -> {}
            case Notice.MigLayoutNotReady booking -> {}
            case Notice.ApprovalDecided booking -> {}
            case Notice.WaitlistBooked booking -> {}
            case Notice.WaitlistExpired booking -> {}
            case Notice.BookingUnderused booking -> {}
            case Notice.BudgetThresholdReached tenant -> {}
        }
    }

    private static void onIntent(
            ReclaimIntent intent, ReclaimAnnouncements announcements, ReconcileLoop<WorkloadRef> loop) {
        switch (intent) {
            case ReclaimIntent.ReclaimWithdrawn withdrawn -> {
                announcements.withdrawn(withdrawn.workload(), withdrawn.windowId());
                loop.enqueue(withdrawn.workload());
            }
            case ReclaimIntent.ReclaimRequested requested -> {}
        }
    }
}
