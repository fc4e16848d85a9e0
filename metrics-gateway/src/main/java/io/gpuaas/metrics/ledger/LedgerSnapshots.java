package io.gpuaas.metrics.ledger;

import io.gpuaas.events.usage.UsageDaily;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The last computed {@link Ledger}, which every reader (usage API, gauge, publisher) takes as it is: it is rebuilt by
 * {@link #refresh()} (every {@code ledger.refresh}, on the feed component's timer, never on a reader's or the
 * feed's thread) when the inputs or the topic's records moved. The inputs are copied under the fold's lock and the
 * computation runs outside it, so the feed never waits for a computation. Empty until the first refresh after the
 * ledger feed caught up: a half-replayed ledger is never served.
 */
public final class LedgerSnapshots {

    private static final long MINUTE = 60_000;
    /** Minutes of per-booking utilization kept (the longest window the utilization endpoint answers). */
    public static final int UTILIZATION_MINUTES = 1440;

    private final LedgerInputs inputs;
    private final PublishedDays published;
    private final Sealing sealing;
    private volatile Ledger current;
    private long inputsVersion = -1;
    private long publishedVersion = -1;

    public LedgerSnapshots(LedgerInputs inputs, PublishedDays published, Sealing sealing) {
        this.inputs = inputs;
        this.published = published;
        this.sealing = sealing;
    }

    /** The last snapshot, empty while the ledger feed is catching up. */
    public Optional<Ledger> current() {
        return Optional.ofNullable(current);
    }

    public Sealing sealing() {
        return sealing;
    }

    public PublishedDays published() {
        return published;
    }

    /** Computes a new snapshot if anything moved, then drops the inputs only sealed days needed. */
    public synchronized void refresh() {
        long topic = published.version();
        if (current != null && inputs.version() == inputsVersion && topic == publishedVersion) {
            return;
        }
        LedgerInputs.Copy copy = inputs.copy();
        Ledger next = compute(copy, published.all(), sealing);
        current = next;
        inputsVersion = copy.version();
        publishedVersion = topic;
        Set<String> foldDays = new HashSet<>();
        next.bookings().values().forEach(b -> b.days()
                .keySet()
                .forEach(day -> foldDays.add(UsageDaily.key(b.facts().booking().tenant(), day.toString()))));
        inputs.dropBefore(sealing.cutoff(foldDays, next.served(), copy.asOf(), copy.horizon()), minutesFrom(copy));
    }

    /** The first minute (epoch ms) whose per-booking utilization a snapshot of {@code copy} keeps. */
    private static long minutesFrom(LedgerInputs.Copy copy) {
        return copy.asOf() == null
                ? Long.MAX_VALUE
                : Math.floorDiv(copy.asOf().toEpochMilli(), MINUTE) * MINUTE - UTILIZATION_MINUTES * MINUTE;
    }

    /**
     * The ledger of {@code copy}: the fold's figures, and the topic's records of sealed days and of days the fold
     * cannot see whole ({@link ServedDays}). The snapshot's cut is {@link Sealing#cut}: the whole minute of
     * {@code asOf - cut-lag}, before which every gap of a sample is charged.
     */
    static Ledger compute(LedgerInputs.Copy copy, Map<String, UsageDaily> topic, Sealing sealing) {
        long cut = sealing.cut(copy.asOf());
        var full = new LedgerCalculator(copy, minutesFrom(copy)).compute(Long.MAX_VALUE);
        var fold = new LedgerCalculator(copy, Long.MAX_VALUE);
        var accrued = fold.compute(cut);
        ServedDays served = ServedDays.of(topic, fold, copy.horizon(), cut, copy.version(), copy.asOf());
        Instant cutInstant = copy.asOf() == null ? null : Instant.ofEpochMilli(cut);
        return new Ledger(full, accrued, copy.version(), copy.asOf(), cutInstant, copy.horizon(), served);
    }
}
