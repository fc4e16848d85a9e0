package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kit.runtime.ReconcileLoop;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.kit.runtime.ServiceComponent;
import io.gpuaas.kit.runtime.TopicReplica;
import io.gpuaas.quota.model.BookingNotice;
import io.gpuaas.quota.model.BookingNotices;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Booking notices onto the tenant's objects: a replica of {@code gpuaas.notices} ({@code booking-notices}, no group,
 * read from the beginning at every start) keeps {@link BookingNotices}, and a reconcile loop ({@code notice-writer})
 * keyed by booking id makes the objects show them through {@link NoticeAnnouncer}. Only the Lease holder writes (the
 * {@link WriterGate}, as for quota); a new leader looks at every booking with a notice. An API error is retried later
 * without counting as a failure of the loop: one object the API server refuses must not take the service out of
 * readiness, and the replica only records and enqueues, so it never waits on the API server.
 */
public final class NoticeLoop {

    static final String FEED = "booking-notices";
    static final String LOOP = "notice-writer";
    private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);
    private static final Duration REFUSED_RETRY = Duration.ofSeconds(5);
    /** Workloads submitted after a notice get its Event and annotation at the latest this long after. */
    private static final Duration RESYNC = Duration.ofMinutes(1);

    private final BookingNotices notices = new BookingNotices();
    private final NoticeAnnouncer announcer;
    private final WriterGate gate;
    private final Clock clock;
    private final ReconcileLoop<String> loop;
    private final TopicReplica feed;
    private final Consumer<Notice> others;

    public NoticeLoop(
            NoticeAnnouncer announcer,
            WriterGate gate,
            KafkaClients kafka,
            DeadLetterPublisher deadLetters,
            Clock clock,
            PrometheusRegistry registry,
            Consumer<Notice> others,
            int startOrder) {
        this.others = others;
        this.announcer = announcer;
        this.gate = gate;
        this.clock = clock;
        this.loop = ReconcileLoop.<String>builder(LOOP, bookingId -> gated(() -> reconcile(bookingId)))
                .workers(2)
                .resync(RESYNC, this::resync)
                .metrics(registry)
                .startOrder(startOrder)
                .build();
        this.feed = TopicReplica.builder(
                        FEED,
                        () -> kafka.replicaConsumer(FEED),
                        kafka.settings().topicPrefix(),
                        deadLetters)
                .follow(Topics.NOTICES, TopicReplica.StartAt.BEGINNING, (key, notice) -> onNotice(notice))
                .startOrder(startOrder)
                .build();
    }

    /** The replica and the loop, as lifecycle components. */
    public List<ServiceComponent> components() {
        return List.of(feed, loop);
    }

    /** A term begins: every booking with a notice is looked at (a follower's reconciles wrote nothing). */
    public void takeover() {
        notices.bookings().forEach(loop::enqueue);
    }

    /** Whether the notices were read to their end as of start (what this process wrote before is known). */
    public boolean caughtUp() {
        return feed.health().ready();
    }

    private void onNotice(Notice notice) {
        others.accept(notice);
        BookingNotice.of(notice)
                .filter(n -> notices.add(n, clock.instant()))
                .ifPresent(n -> loop.enqueue(n.bookingId()));
    }

    /**
     * Shows, per annotation, the booking's latest decision alone: an extension or a shortening decides a notice with
     * the new time, which supersedes the ones before (forgotten at once, never written again), so each object is
     * written once per change and never flips back to an old end. What is over is taken off; the loop looks again
     * when the next one is over.
     */
    private Outcome reconcile(String bookingId) {
        try {
            Instant now = clock.instant();
            Map<String, BookingNotice> latest = new HashMap<>();
            for (BookingNotice notice : notices.of(bookingId)) {
                BookingNotice superseded = latest.put(notice.annotation(), notice);
                if (superseded != null) {
                    announcer.forget(superseded);
                    notices.forget(superseded);
                }
            }
            Instant next = null;
            for (BookingNotice notice : latest.values()) {
                if (notice.over(now)) {
                    announcer.withdraw(notice);
                    notices.forget(notice);
                } else {
                    announcer.show(notice);
                    next = next == null || notice.at().isBefore(next) ? notice.at() : next;
                }
            }
            return next == null ? Outcome.done() : Outcome.requeueAfter(Duration.between(now, next));
        } catch (KubernetesClientException e) {
            return Outcome.requeueAfter(e.getCode() == 409 ? CONFLICT_RETRY : REFUSED_RETRY);
        }
    }

    /** Every booking with a notice, on the leader; a follower only forgets what is over. */
    private List<String> resync() {
        if (gate.isOpen()) {
            return notices.bookings();
        }
        notices.dropOver(clock.instant());
        return List.of();
    }

    private Outcome gated(Callable<Outcome> work) throws Exception {
        return gate.ifOpen(work).orElse(Outcome.done());
    }
}
