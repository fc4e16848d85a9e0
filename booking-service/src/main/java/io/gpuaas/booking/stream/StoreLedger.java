package io.gpuaas.booking.stream;

import io.gpuaas.booking.budget.LedgerAccess;
import io.gpuaas.booking.budget.MemoryLedger;
import io.gpuaas.booking.budget.TenantLedger;
import io.gpuaas.booking.budget.TenantLedger.Counted;
import io.gpuaas.booking.budget.TenantLedger.Hold;
import io.gpuaas.booking.budget.TenantLedger.KeyUse;
import io.gpuaas.booking.budget.TenantSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One tenant's budget state over the stage's stores, for one record: the summary from {@code budget-tenants} (key
 * tenant), each item from {@code budget-items} (key tenant, NUL, {@code b:} booking id / {@code h:} request id /
 * {@code k:} scoped key). Writes are kept here and written by {@link #flush()} after the decider returned, so a
 * command the decider fails on leaves the stores as they were. A tenant with no summary but a value in the old store
 * {@code budget-ledgers} (one {@link TenantLedger} per tenant, before this layout) is read from there once, written in
 * the new layout and removed from the old store, in the same transaction.
 */
final class StoreLedger implements LedgerAccess {

    /** Between the tenant and the item in an item's key: no tenant name holds it, so a prefix scan is the tenant's. */
    static final String SEPARATOR = "\u0000";

    private final String tenant;
    private final KeyValueStore<String, TenantSummary> summaries;
    private final KeyValueStore<String, BudgetItem> items;
    private final KeyValueStore<String, TenantLedger> legacy;
    private final Map<String, BudgetItem> writes = new TreeMap<>(); // key → new value, null: delete
    private TenantSummary summary;
    private boolean migrated;

    private StoreLedger(
            String tenant,
            KeyValueStore<String, TenantSummary> summaries,
            KeyValueStore<String, BudgetItem> items,
            KeyValueStore<String, TenantLedger> legacy) {
        this.tenant = tenant;
        this.summaries = summaries;
        this.items = items;
        this.legacy = legacy;
    }

    static StoreLedger load(
            String tenant,
            KeyValueStore<String, TenantSummary> summaries,
            KeyValueStore<String, BudgetItem> items,
            KeyValueStore<String, TenantLedger> legacy) {
        StoreLedger ledger = new StoreLedger(tenant, summaries, items, legacy);
        TenantSummary stored = summaries.get(tenant);
        if (stored != null) {
            ledger.summary = stored;
            return ledger;
        }
        TenantLedger old = legacy == null ? null : legacy.get(tenant);
        if (old == null) {
            ledger.summary = TenantSummary.empty(tenant);
            return ledger;
        }
        MemoryLedger memory = MemoryLedger.of(old);
        ledger.summary = memory.summary();
        memory.bookings().forEach((id, c) -> ledger.putBooking(id, c));
        memory.holds().forEach((id, h) -> ledger.putHold(id, h));
        memory.keys().forEach((k, u) -> ledger.putKey(k, u));
        ledger.migrated = true;
        return ledger;
    }

    /** Writes the summary and every changed item (and drops the tenant's old-layout value once read). */
    void flush() {
        summaries.put(tenant, summary);
        writes.forEach((key, value) -> {
            if (value == null) {
                items.delete(key);
            } else {
                items.put(key, value);
            }
        });
        writes.clear();
        if (migrated) {
            legacy.delete(tenant);
            migrated = false;
        }
    }

    static String itemKey(String tenant, char kind, String id) {
        return tenant + SEPARATOR + kind + ":" + id;
    }

    private BudgetItem item(char kind, String id) {
        String key = itemKey(tenant, kind, id);
        return writes.containsKey(key) ? writes.get(key) : items.get(key);
    }

    @Override
    public TenantSummary summary() {
        return summary;
    }

    @Override
    public void summary(TenantSummary summary) {
        this.summary = summary;
    }

    @Override
    public Counted booking(String id) {
        BudgetItem item = item('b', id);
        return item == null ? null : item.booking();
    }

    @Override
    public void putBooking(String id, Counted counted) {
        writes.put(itemKey(tenant, 'b', id), new BudgetItem(counted, null, null));
    }

    @Override
    public void removeBooking(String id) {
        writes.put(itemKey(tenant, 'b', id), null);
    }

    @Override
    public Hold hold(String requestId) {
        BudgetItem item = item('h', requestId);
        return item == null ? null : item.hold();
    }

    @Override
    public void putHold(String requestId, Hold hold) {
        writes.put(itemKey(tenant, 'h', requestId), new BudgetItem(null, hold, null));
    }

    @Override
    public void removeHold(String requestId) {
        writes.put(itemKey(tenant, 'h', requestId), null);
    }

    @Override
    public KeyUse key(String key) {
        BudgetItem item = item('k', key);
        return item == null ? null : item.key();
    }

    @Override
    public void putKey(String key, KeyUse use) {
        writes.put(itemKey(tenant, 'k', key), new BudgetItem(null, null, use));
    }

    @Override
    public void sweep(UnaryOperator<Counted> bookings, UnaryOperator<Hold> holds, Predicate<KeyUse> keepKey) {
        Map<String, BudgetItem> all = new TreeMap<>();
        try (KeyValueIterator<String, BudgetItem> it = items.prefixScan(tenant + SEPARATOR, new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, BudgetItem> next = it.next();
                all.put(next.key, next.value);
            }
        }
        all.putAll(writes); // what this record already changed wins over the store
        List<Map.Entry<String, BudgetItem>> entries = new ArrayList<>(all.entrySet());
        for (Map.Entry<String, BudgetItem> e : entries) {
            BudgetItem item = e.getValue();
            if (item == null) {
                continue;
            }
            BudgetItem swept;
            if (item.booking() != null) {
                Counted c = bookings.apply(item.booking());
                swept = c == null ? null : new BudgetItem(c, null, null);
            } else if (item.hold() != null) {
                Hold h = holds.apply(item.hold());
                swept = h == null ? null : new BudgetItem(null, h, null);
            } else {
                swept = item.key() != null && keepKey.test(item.key()) ? item : null;
            }
            if (!item.equals(swept)) {
                writes.put(e.getKey(), swept);
            }
        }
    }
}
