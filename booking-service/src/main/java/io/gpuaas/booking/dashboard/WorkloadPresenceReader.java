package io.gpuaas.booking.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Booking;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The Kueue Workloads under a booking, read (never written) from the lifecycle's global store {@code
 * workload-presence}: the Workloads in the cells the booking looks at ({@link WorkloadCells#ofBooking}), pending when
 * all their cells are flavor-less, admitted otherwise. The store is the lifecycle's (rows {@code c/<cell>} with the
 * Workloads in the cell now, {@code w/<namespace>/<name>} with the cells of one); this class only reads its JSON.
 */
public final class WorkloadPresenceReader {

    /** One Kueue Workload under a booking. */
    public record KueueWorkload(String namespace, String name, boolean admitted) {}

    private final Supplier<Optional<ReadOnlyKeyValueStore<String, byte[]>>> store;

    public WorkloadPresenceReader(Supplier<Optional<ReadOnlyKeyValueStore<String, byte[]>>> store) {
        this.store = store;
    }

    /** The Workloads under {@code booking} now; empty when the store cannot be read right now. */
    public Optional<List<KueueWorkload>> under(Booking booking) {
        Optional<ReadOnlyKeyValueStore<String, byte[]>> current = store.get();
        if (current.isEmpty()) {
            return Optional.empty();
        }
        ReadOnlyKeyValueStore<String, byte[]> presence = current.get();
        Set<String> names = new TreeSet<>();
        for (String cell : WorkloadCells.ofBooking(booking)) {
            JsonNode row = read(presence.get("c/" + cell));
            if (row != null) {
                row.path("active").forEach(w -> names.add(w.asText()));
            }
        }
        List<KueueWorkload> workloads = new ArrayList<>();
        for (String name : names) {
            JsonNode row = read(presence.get("w/" + name));
            if (row == null) {
                continue;
            }
            boolean admitted = false;
            for (JsonNode cell : row.path("cells")) {
                admitted |= !cell.asText().contains("|" + WorkloadCells.ANY_FLAVOR + "|");
            }
            int slash = name.indexOf('/');
            workloads.add(new KueueWorkload(name.substring(0, slash), name.substring(slash + 1), admitted));
        }
        return Optional.of(workloads);
    }

    private static JsonNode read(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return Json.mapper().readTree(value);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable row in workload-presence", e);
        }
    }
}
