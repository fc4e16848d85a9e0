package io.gpuaas.booking.model;

import io.gpuaas.events.booking.WaitlistEntry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/** A {@link WaitlistRepository} in a map, for tests, benchmarks and ledgers without a waitlist store. */
public final class InMemoryWaitlistRepository implements WaitlistRepository {

    private final Map<String, WaitlistEntry> entries = new LinkedHashMap<>();

    @Override
    public void save(WaitlistEntry entry) {
        entries.put(entry.id(), entry);
    }

    @Override
    public void delete(String entryId) {
        entries.remove(entryId);
    }

    @Override
    public void forEach(Consumer<WaitlistEntry> action) {
        entries.values().forEach(action);
    }
}
