package io.gpuaas.booking.stream;

import io.gpuaas.booking.model.LifecycleRules;
import io.gpuaas.booking.model.LifecycleStep;
import io.gpuaas.booking.model.TrackedBooking;
import io.gpuaas.booking.model.WorkloadPresence;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.notice.Notice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The lifecycle of the ACTIVE bookings of one partition of {@code gpuaas.bookings}: each booking state read updates
 * its {@link TrackedBooking} (store {@code booking-lifecycle}, changelogged), and a wall-clock punctuation asks
 * {@link LifecycleRules} what is due. A notice or release is forwarded in the same exactly-once transaction as the
 * store write that records it, so after a crash either both happened or neither, and the next owner of the partition
 * decides it again from the restored store: each notice is written once, across restarts and replicas. The store is
 * mirrored in memory (rebuilt in {@link #init}, which Streams calls again after every restore, rebalance or aborted
 * transaction), so a punctuation does not deserialize every row.
 */
final class LifecycleProcessor implements Processor<String, Booking, String, Object> {

    private final LifecycleRules rules;
    private final Duration interval;
    private final LifecycleOutcomes outcomes;
    private final Map<String, TrackedBooking> tracked = new HashMap<>();
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, TrackedBooking> store;
    private WorkloadPresence workloads;

    LifecycleProcessor(LifecycleRules rules, Duration interval, LifecycleOutcomes outcomes) {
        this.rules = rules;
        this.interval = interval;
        this.outcomes = outcomes;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.store = context.getStateStore(LifecycleTopology.LIFECYCLE_STORE);
        KeyValueStore<String, byte[]> presence = context.getStateStore(LifecycleTopology.PRESENCE_STORE);
        this.workloads = new WorkloadIndex(presence);
        tracked.clear();
        try (KeyValueIterator<String, TrackedBooking> all = store.all()) {
            all.forEachRemaining(kv -> tracked.put(kv.key, kv.value));
        }
        context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, this::look);
    }

    @Override
    public void process(Record<String, Booking> record) {
        Booking booking = record.value();
        String id = booking != null ? booking.id() : record.key();
        if (id == null) {
            return;
        }
        Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
        TrackedBooking before = tracked.get(id);
        Optional<TrackedBooking> after = rules.track(before, booking, now);
        if (after.isEmpty()) {
            if (before != null) {
                tracked.remove(id);
                store.delete(id);
            }
        } else if (!after.get().equals(before)) {
            save(after.get());
        }
    }

    private void look(long wallClockMillis) {
        Instant now = Instant.ofEpochMilli(wallClockMillis);
        for (TrackedBooking before : new ArrayList<>(tracked.values())) {
            LifecycleStep step = rules.step(before, workloads, now);
            if (step.tracked().equals(before)) {
                continue;
            }
            save(step.tracked());
            for (Notice notice : step.notices()) {
                context.forward(
                        new Record<String, Object>(step.tracked().booking().id(), notice, wallClockMillis),
                        LifecycleTopology.NOTICES_SINK);
                outcomes.noticed(notice);
            }
            step.release().ifPresent(release -> {
                context.forward(
                        new Record<String, Object>(release.pool(), release, wallClockMillis),
                        LifecycleTopology.COMMANDS_SINK);
                outcomes.releaseRequested(release);
            });
        }
    }

    private void save(TrackedBooking next) {
        tracked.put(next.booking().id(), next);
        store.put(next.booking().id(), next);
    }
}
