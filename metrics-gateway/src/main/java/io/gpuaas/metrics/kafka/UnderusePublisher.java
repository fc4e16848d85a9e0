package io.gpuaas.metrics.kafka;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaderSchedule.Periodic;
import io.gpuaas.metrics.config.UnderuseSettings;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.UnderuseCheck;
import io.gpuaas.metrics.ledger.UnderuseSent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Component {@code underuse-notices}: every {@code interval} the Lease holder sends a {@code BookingUnderused} on
 * {@code gpuaas.notices} (keyed by booking id) for each booking {@link UnderuseCheck} finds under-used at the
 * ledger's latest snapshot, unless a notice of the same id (booking and suppression period) is already on the topic
 * ({@link UnderuseSent}, read back by the ledger's feed from the start) or was sent by this replica. Nothing before
 * the first snapshot, which waits for the feed, notices included, to catch up: a restart or a new leader sends no
 * notice twice.
 */
public final class UnderusePublisher {

    static final String NAME = "underuse-notices";

    private final LedgerSnapshots snapshots;
    private final UnderuseSent sent;
    private final Producer<String, Notice> producer;
    private final String topic;
    private final UnderuseSettings settings;

    public UnderusePublisher(
            LedgerSnapshots snapshots,
            UnderuseSent sent,
            Producer<String, Notice> producer,
            String topic,
            UnderuseSettings settings) {
        this.snapshots = snapshots;
        this.sent = sent;
        this.producer = producer;
        this.topic = topic;
        this.settings = settings;
    }

    /** The component and leader duty: looks every {@code interval}; flushes on stepping down. */
    public LeaderSchedule schedule(PrometheusRegistry registry) {
        return PublisherSchedule.of(
                        NAME,
                        topic,
                        "under-use below " + settings.threshold() + " over " + settings.window() + " every "
                                + settings.interval() + " to " + topic,
                        producer,
                        registry)
                .task("publish", Periodic.fixedDelay(Duration.ZERO, settings.interval(), this::publishNew))
                .onStepDown(producer::flush)
                .build();
    }

    /** Sends the notices not sent yet for the current snapshot; returns them (nothing before the first snapshot). */
    public synchronized List<Notice.BookingUnderused> publishNew() {
        Ledger ledger = snapshots.current().orElse(null);
        if (ledger == null || ledger.cut() == null) {
            return List.of();
        }
        List<Notice.BookingUnderused> out = new ArrayList<>();
        for (Notice.BookingUnderused notice : UnderuseCheck.at(ledger, settings)) {
            if (!sent.contains(notice.noticeId())) {
                // No lock in the callback: it runs on the producer's I/O thread.
                producer.send(new ProducerRecord<>(topic, notice.bookingId(), notice), (metadata, error) -> {
                    if (error != null) {
                        sent.remove(notice.noticeId());
                    }
                });
                sent.add(notice);
                out.add(notice);
            }
        }
        // An id names its suppression period: once that is over, no notice can carry it again.
        sent.forgetBefore(ledger.cut().minus(settings.suppression().multipliedBy(2)));
        return out;
    }
}
