package io.gpuaas.booking.model;

import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.WaitlistEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The waiting entries of the pools one writer owns: stored in a {@link WaitlistRepository}, indexed in memory per
 * pool in arrival order ({@link WaitlistEntry#createdAt()}, then id, so a rebuild from a store that iterates by key
 * gives the same order) and by latest start, so the clock only touches entries that are due to expire. Changed only
 * through the waitlist events of a decision ({@link #apply}), so the store, the indexes and the topic never disagree.
 */
public final class WaitlistBook {

    static final Comparator<WaitlistEntry> ARRIVAL =
            Comparator.comparing(WaitlistEntry::createdAt).thenComparing(WaitlistEntry::id);

    private final WaitlistRepository repository;
    private final Map<String, WaitlistEntry> byId = new HashMap<>();
    private final Map<String, TreeSet<WaitlistEntry>> byPool = new HashMap<>();
    private final TreeMap<Instant, TreeSet<WaitlistEntry>> byLatestStart = new TreeMap<>();

    public WaitlistBook(WaitlistRepository repository) {
        this.repository = repository;
    }

    /** Rebuilds the indexes from the repository. */
    void rebuild() {
        byId.clear();
        byPool.clear();
        byLatestStart.clear();
        repository.forEach(this::index);
    }

    public Optional<WaitlistEntry> find(String entryId) {
        return Optional.ofNullable(byId.get(entryId));
    }

    /** The waiting entries of {@code pool}, in arrival order. */
    public List<WaitlistEntry> waiting(String pool) {
        TreeSet<WaitlistEntry> entries = byPool.get(pool);
        return entries == null ? List.of() : List.copyOf(entries);
    }

    /** Whether {@code pool} has an entry waiting. */
    public boolean anyWaiting(String pool) {
        TreeSet<WaitlistEntry> entries = byPool.get(pool);
        return entries != null && !entries.isEmpty();
    }

    /** The entries whose latest start is at or before {@code now}, earliest first, then in arrival order. */
    public List<WaitlistEntry> expiringAt(Instant now) {
        List<WaitlistEntry> out = new ArrayList<>();
        byLatestStart.headMap(now, true).values().forEach(out::addAll);
        return out;
    }

    /** How many entries wait, on every pool of this writer. */
    public int size() {
        return byId.size();
    }

    /** Stores what the waitlist events among {@code events} say: a new entry waits, an ended one goes. */
    void apply(List<BookingEvent> events) {
        for (BookingEvent event : events) {
            switch (event) {
                case BookingEvent.BookingWaitlisted w -> {
                    repository.save(w.entry());
                    index(w.entry());
                }
                case BookingEvent.WaitlistEnded e -> {
                    repository.delete(e.entry().id());
                    unindex(e.entry().id());
                }
                default -> {}
            }
        }
    }

    private void index(WaitlistEntry entry) {
        unindex(entry.id());
        byId.put(entry.id(), entry);
        byPool.computeIfAbsent(entry.pool(), p -> new TreeSet<>(ARRIVAL)).add(entry);
        byLatestStart
                .computeIfAbsent(entry.latestStart(), t -> new TreeSet<>(ARRIVAL))
                .add(entry);
    }

    private void unindex(String entryId) {
        WaitlistEntry old = byId.remove(entryId);
        if (old == null) {
            return;
        }
        TreeSet<WaitlistEntry> pool = byPool.get(old.pool());
        if (pool != null && pool.remove(old) && pool.isEmpty()) {
            byPool.remove(old.pool());
        }
        TreeSet<WaitlistEntry> due = byLatestStart.get(old.latestStart());
        if (due != null && due.remove(old) && due.isEmpty()) {
            byLatestStart.remove(old.latestStart());
        }
    }
}
