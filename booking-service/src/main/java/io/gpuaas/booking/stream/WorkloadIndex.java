package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.WorkloadCells;
import io.gpuaas.booking.model.WorkloadPresence;
import io.gpuaas.events.booking.Booking;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Workloads booking-service knows, kept compact in the global store {@code workload-presence} (every instance
 * holds all of it): per Workload ({@code w/<namespace>/<name>}) the cells it occupies now ({@link WorkloadCells}), and
 * per cell ({@code c/<cell>}) the Workloads in it now and the last time one was. A finished or deleted Workload
 * leaves nothing but that time, so the store holds the active Workloads plus one row per cell ever used; and per
 * partition of the feed ({@code m/<partition>}) the newest {@code FeedWatermark} read.
 */
final class WorkloadIndex implements WorkloadPresence {

    private static final JsonSerde<WorkloadRow> WORKLOADS = new JsonSerde<>(WorkloadRow.class);
    private static final JsonSerde<CellRow> CELLS = new JsonSerde<>(CellRow.class);
    private static final JsonSerde<WatermarkRow> MARKS = new JsonSerde<>(WatermarkRow.class);
    private static final String WATERMARK = "m/";

    private final KeyValueStore<String, byte[]> store;

    WorkloadIndex(KeyValueStore<String, byte[]> store) {
        this.store = store;
    }

    /**
     * A Workload ({@code namespace/name}) occupies {@code cells} from {@code time} on: it leaves the cells it no longer
     * occupies and enters the new ones, and every cell it touches was occupied until at least {@code time}. Applying
     * a suffix of the topic again (a restart from an older checkpoint) ends in the same rows.
     */
    void apply(String workload, Set<String> cells, Instant time) {
        WorkloadRow before = WORKLOADS.deserializer().deserialize(null, store.get("w/" + workload));
        Set<String> touched = new TreeSet<>(cells);
        if (before != null) {
            touched.addAll(before.cells());
        }
        for (String cell : touched) {
            CellRow row = CELLS.deserializer().deserialize(null, store.get("c/" + cell));
            Set<String> active = new TreeSet<>(row == null ? List.of() : row.active());
            if (cells.contains(cell)) {
                active.add(workload);
            } else {
                active.remove(workload);
            }
            Instant last = row == null || time.isAfter(row.lastSeen()) ? time : row.lastSeen();
            store.put("c/" + cell, CELLS.serializer().serialize(null, new CellRow(List.copyOf(active), last)));
        }
        if (cells.isEmpty()) {
            store.delete("w/" + workload);
        } else {
            WorkloadRow now = new WorkloadRow(List.copyOf(new TreeSet<>(cells)));
            store.put("w/" + workload, WORKLOADS.serializer().serialize(null, now));
        }
    }

    /**
     * The newest watermark of {@code partition} of the feed: {@link #feedWatermark()} takes the oldest of these. A
     * watermark older than the one held (a replay of the topic) changes nothing.
     */
    void watermark(int partition, Instant time) {
        String key = WATERMARK + partition;
        WatermarkRow before = MARKS.deserializer().deserialize(null, store.get(key));
        if (before == null || time.isAfter(before.time())) {
            store.put(key, MARKS.serializer().serialize(null, new WatermarkRow(time)));
        }
    }

    @Override
    public Optional<Instant> feedWatermark() {
        Instant oldest = null;
        try (KeyValueIterator<String, byte[]> marks = store.prefixScan(WATERMARK, new StringSerializer())) {
            while (marks.hasNext()) {
                Instant time = MARKS.deserializer()
                        .deserialize(null, marks.next().value)
                        .time();
                oldest = oldest == null || time.isBefore(oldest) ? time : oldest;
            }
        }
        return Optional.ofNullable(oldest);
    }

    @Override
    public boolean seenSince(Booking booking, Instant since) {
        for (String cell : WorkloadCells.ofBooking(booking)) {
            CellRow row = CELLS.deserializer().deserialize(null, store.get("c/" + cell));
            if (row != null && (!row.active().isEmpty() || !row.lastSeen().isBefore(since))) {
                return true;
            }
        }
        return false;
    }

    /** The cells a Workload occupies now. */
    record WorkloadRow(List<String> cells) {}

    /** The newest feed watermark of one partition. */
    record WatermarkRow(Instant time) {}

    /** The Workloads ({@code namespace/name}) in a cell now, and the last time one was there. */
    record CellRow(List<String> active, Instant lastSeen) {}
}
