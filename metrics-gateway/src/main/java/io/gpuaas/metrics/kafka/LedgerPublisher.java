package io.gpuaas.metrics.kafka;

import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import io.gpuaas.kit.k8s.LeaderSchedule;
import io.gpuaas.kit.k8s.LeaderSchedule.Periodic;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.Sealing;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Component {@code usage-ledger}: publishes the ledger's daily records on the compacted {@code gpuaas.usage-ledger},
 * keyed {@code <tenant>/<yyyy-mm-dd>}, every {@code interval}, the days whose figures or cut differ from the topic's
 * last record (every replica replicates the topic, so a new leader re-sends nothing unchanged), and seals each day
 * once it is over (DESIGN.md "Sealed days, cut, BASE + DELTA"): a sealed day is never published again, and a day
 * this replica's fold cannot see whole is published only as the topic's record plus the fold from that record's
 * cut. A leader duty ({@link #schedule}): only the Lease holder publishes, and nothing before the first snapshot (the
 * ledger feed caught up).
 */
public final class LedgerPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerPublisher.class);
    static final String NAME = "usage-ledger";

    private final LedgerSnapshots snapshots;
    private final Producer<String, UsageLedgerEvent> producer;
    private final String topic;
    private final Duration interval;
    /** Key to the record Kafka acknowledged since this replica leads; newer than the topic replica may show. */
    private final Map<String, UsageDaily> acked = new ConcurrentHashMap<>();

    public LedgerPublisher(
            LedgerSnapshots snapshots, Producer<String, UsageLedgerEvent> producer, String topic, Duration interval) {
        this.snapshots = snapshots;
        this.producer = producer;
        this.topic = topic;
        this.interval = interval;
    }

    /**
     * The component {@code usage-ledger} and leader duty: on leading forgets what an earlier term acknowledged, then
     * publishes every {@code interval} after the previous run ended; flushes on stepping down.
     */
    public LeaderSchedule schedule(PrometheusRegistry registry) {
        return PublisherSchedule.of(
                        NAME, topic, "changed and sealed days every " + interval + " to " + topic, producer, registry)
                .onLead(acked::clear)
                .task("publish", Periodic.fixedDelay(Duration.ZERO, interval, this::publishChanged))
                .onStepDown(producer::flush)
                .build();
    }

    /** Sends what {@link #plan} says for the current snapshot; returns it (nothing before the first snapshot). */
    public synchronized List<UsageDaily> publishChanged() {
        Ledger ledger = snapshots.current().orElse(null);
        if (ledger == null) {
            return List.of();
        }
        Map<String, UsageDaily> last = new HashMap<>(snapshots.published().all());
        last.putAll(acked);
        List<UsageDaily> records = plan(ledger, last, snapshots.sealing());
        for (UsageDaily day : records) {
            String key = UsageDaily.key(day.tenant(), day.day());
            // No lock in the callback: it runs on the producer's I/O thread.
            producer.send(new ProducerRecord<>(topic, key, day), (metadata, error) -> {
                if (error == null) {
                    acked.put(key, day);
                } else {
                    LOG.warn("usage ledger {} not published, sent again next time: {}", key, error.toString());
                }
            });
        }
        return records;
    }

    /**
     * The records to send for {@code ledger}, given the last record of each key on the topic ({@code last}):
     * <ul>
     *   <li>a day whose last record is sealed: nothing, ever;</li>
     *   <li>a day the fold cannot see whole and that no record serves: nothing (the fold's figures would be low);</li>
     *   <li>a day over ({@link Sealing#sealed}): its figures sealed, the fold's, BASE + DELTA's, or BASE alone's;</li>
     *   <li>a day served as BASE alone: nothing more until it is over (its record is the best known);</li>
     *   <li>otherwise the figures up to the snapshot's cut when they or the cut differ from the last record's, so
     *       every open day's last record stays within a minute of the leader's asOf (a new leader's DELTA starts
     *       there); none when a day never had figures.</li>
     * </ul>
     */
    static List<UsageDaily> plan(Ledger ledger, Map<String, UsageDaily> last, Sealing sealing) {
        Map<String, UsageDaily> records = ledger.records();
        TreeSet<String> keys = new TreeSet<>(records.keySet());
        keys.addAll(last.keySet());
        List<UsageDaily> send = new ArrayList<>();
        for (String key : keys) {
            UsageDaily previous = last.get(key);
            if (previous != null && previous.isSealed()) {
                continue;
            }
            LocalDate day = LocalDate.parse(key.substring(key.lastIndexOf('/') + 1));
            boolean served = ledger.served().containsKey(key);
            if (!served && !Sealing.visible(day, ledger.horizon())) {
                continue;
            }
            UsageDaily now = records.getOrDefault(key, empty(key, ledger));
            if (sealing.sealed(day, ledger.asOf())) {
                send.add(sealed(now));
            } else if (!ledger.baseOnly().contains(key) && changed(previous, now)) {
                send.add(now);
            }
        }
        return send;
    }

    private static boolean changed(UsageDaily previous, UsageDaily now) {
        if (now.pools().isEmpty()) {
            return previous != null && !previous.pools().isEmpty(); // once, so the topic drops the old figures
        }
        return previous == null
                || !now.pools().equals(previous.pools())
                || !Objects.equals(now.cut(), previous.cut())
                || !Objects.equals(now.migWeighting(), previous.migWeighting());
    }

    private static UsageDaily sealed(UsageDaily d) {
        return new UsageDaily(
                d.tenant(),
                d.day(),
                d.pools(),
                d.total(),
                d.version(),
                d.asOf(),
                true,
                d.bookings(),
                d.cut(),
                d.migWeighting());
    }

    /** A day that lost all its figures (a booking cancelled before its start): zero, so the topic drops the old. */
    private static UsageDaily empty(String key, Ledger ledger) {
        int cut = key.lastIndexOf('/');
        return new UsageDaily(
                key.substring(0, cut),
                key.substring(cut + 1),
                Map.of(),
                UsageDaily.Figures.ZERO,
                ledger.version(),
                ledger.asOf(),
                null,
                List.of(),
                ledger.cut(),
                UsageDaily.GPU_SHARE);
    }
}
