package io.gpuaas.reclaim.announce;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.reclaim.k8s.ReclaimAnnouncer;
import io.gpuaas.reclaim.k8s.WorkerScaler;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/**
 * ReclaimPending onto the workload objects: a replica of {@code notices} and {@code reclaim-intents} (only its
 * withdrawals matter) keeps {@link ReclaimAnnouncements}, and a reconcile loop keyed by workload makes each object
 * show what it says. Outside any stream transaction, as every Kubernetes write of this service.
 */
@Factory
public class AnnouncerFactory {

    static final String FEED = "reclaim-announcements";
    static final String LOOP = "reclaim-announcer";
    private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);
    private static final Duration REFUSED_RETRY = Duration.ofSeconds(5);

    @Singleton
    ReclaimAnnouncements announcements() {
        return new ReclaimAnnouncements();
    }

    @Singleton
    @Named(LOOP)
    ReconcileLoop<WorkloadRef> announcerLoop(
            KubernetesClient client,
            WorkerScaler scaler,
            ReclaimAnnouncements announcements,
            PrometheusRegistry registry) {
        return loop(new ReclaimAnnouncer(client, scaler::leavesAlone, Clock.systemUTC()), announcements, registry);
    }

    @Singleton
    @Named(FEED)
    TopicReplica announcementFeed(
            KafkaClients clients,
            ReclaimAnnouncements announcements,
            @Named(LOOP) ReconcileLoop<WorkloadRef> loop,
            PrometheusRegistry registry) {
        return feed(clients, announcements, loop, registry);
    }

    /**
     * The loop: one workload at a time; an API error is retried after a while without counting as a failure of the
     * loop (anything else thrown is the loop's per-key backoff).
     */
    public static ReconcileLoop<WorkloadRef> loop(
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
    public static TopicReplica feed(
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
