package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.WaitlistRepository;
import io.gpuaas.events.booking.WaitlistEntry;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** The waiting entries in a RocksDB store of the decision task, backed by its changelog. */
final class StoreWaitlistRepository implements WaitlistRepository {

    private final KeyValueStore<String, WaitlistEntry> entries;

    StoreWaitlistRepository(KeyValueStore<String, WaitlistEntry> entries) {
        this.entries = entries;
    }

    @Override
    public void save(WaitlistEntry entry) {
        entries.put(entry.id(), entry);
    }

    @Override
    public void delete(String entryId) {
        entries.delete(entryId);
    }

    @Override
    public void forEach(Consumer<WaitlistEntry> action) {
        try (KeyValueIterator<String, WaitlistEntry> all = entries.all()) {
            all.forEachRemaining(kv -> action.accept(kv.value));
        }
    }
}
