package io.gpuaas.metrics.ledger;

import io.gpuaas.events.usage.UsageDaily;
import io.gpuaas.events.usage.UsageLedgerEvent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replica of the compacted {@code gpuaas.usage-ledger}: the last record of every {@code <tenant>/<day>}, as
 * every gateway replica reads it from the beginning. Sealed days are served from here, and a new leader compares
 * its fold with it instead of re-sending every day.
 */
public final class PublishedDays {

    private final Map<String, UsageDaily> days = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    /** A record of the topic; null (a delete) forgets the key. */
    public void apply(String key, UsageLedgerEvent value) {
        switch (value) {
            case null -> days.remove(key);
            case UsageDaily daily -> days.put(key, daily);
        }
        version.incrementAndGet();
    }

    /** The last record of {@code key}, or null. */
    public UsageDaily get(String key) {
        return days.get(key);
    }

    /** Every key's last record (a copy). */
    public Map<String, UsageDaily> all() {
        return Map.copyOf(days);
    }

    /** Records applied so far: a snapshot is rebuilt when this or the inputs' version moved. */
    public long version() {
        return version.get();
    }
}
