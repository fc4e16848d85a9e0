package io.gpuaas.reclaim.stream;

import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.IdlenessWindow;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.gpuaas.reclaim.model.WorkloadInfo;
import io.gpuaas.reclaim.model.WorkloadLookup;
import io.gpuaas.reclaim.model.WorkloadSamples;
import io.gpuaas.reclaim.model.WorkloadVerdict;
import io.gpuaas.reclaim.model.WorkloadWindows;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Second step: one workload's samples, in order, against its windows in the state store; a record holds that
 * workload's samples of one scrape, which share their time, so the workload is judged once they are all in. Store
 * update, output
 * events and intents and input offsets commit in one exactly-once transaction, so after a crash the windows are
 * exactly those of the committed offsets and re-processing rebuilds the rest. It only decides: nothing here waits
 * on the API server.
 */
public final class IdlenessProcessor implements Processor<String, WorkloadSamples, String, Decision> {

    private final String storeName;
    private final WorkloadLookup workloads;
    private final OwnerLookup owners;
    private final ReclaimDecider decider;
    private final ReclaimerMetrics metrics;
    /**
     * The task's windows as live objects: this processor is the only writer of its keys, so reading back what it
     * wrote saves decoding the store value on every sample. Cleared whenever the task is (re)initialised, so after
     * an aborted transaction or a migration the windows come from the store again.
     */
    private final Map<String, WorkloadWindows> live = new HashMap<>();

    private ProcessorContext<String, Decision> context;
    private KeyValueStore<String, WorkloadWindows> store;

    public IdlenessProcessor(
            String storeName,
            WorkloadLookup workloads,
            OwnerLookup owners,
            ReclaimDecider decider,
            ReclaimerMetrics metrics) {
        this.storeName = storeName;
        this.workloads = workloads;
        this.owners = owners;
        this.decider = decider;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, Decision> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        live.clear();
    }

    @Override
    public void close() {
        live.clear();
    }

    @Override
    public void process(Record<String, WorkloadSamples> record) {
        WorkloadSamples batch = record.value();
        WorkloadRef ref = batch.workload();
        if (batch.keep() != null) {
            keep(record, ref);
            return;
        }
        Optional<WorkloadInfo> found = workloads.find(ref);
        if (found.isEmpty()) {
            // The object is gone or not cached yet: never act on what we cannot see.
            metrics.samples("unknown_workload", batch.samples().size());
            return;
        }
        WorkloadInfo info = found.get();
        WorkloadWindows state = windows(record.key());
        if (state.phase() == WorkloadWindows.Phase.RECLAIMED && info.resumedAtMillis() > state.phaseSinceMillis()) {
            state.markResumed(info.resumedAtMillis());
        }
        metrics.windowSamples(batch.samples().size());
        WorkloadWindows.Phase before = state.phase();
        String requested = before == WorkloadWindows.Phase.RECLAIMED ? state.actionId() : null;
        String announced = before != WorkloadWindows.Phase.RECLAIMED && state.noticed()
                ? ReclaimDecider.windowId(ref, state.noticedSinceMillis())
                : null;
        boolean busy = false;
        for (AttributedSample sample : batch.samples()) {
            busy |= state.accept(sample, info.policy());
        }
        long latest = latest(batch);
        if (announced != null && !state.noticed()) {
            // The announced window ends without a reclaim: the applier takes the reclaim-at annotation off.
            context.forward(new Record<>(ref.key(), decider.withdraw(ref, announced), record.timestamp()));
        }
        if (busy && before != WorkloadWindows.Phase.ACTIVE) {
            metrics.active(ref);
            if (requested != null) {
                // The applier may not have applied it yet (rate limit, slow API server): it must not any more.
                context.forward(new Record<>(ref.key(), decider.withdraw(ref, requested), record.timestamp()));
            }
        }
        if (!busy && state.awaitingDecision(latest)) {
            evaluate(ref, info, state, latest, record.timestamp());
        }
        store.put(record.key(), state);
    }

    /** A keep answer: decided against the workload's state, whether or not its object is cached right now. */
    private void keep(Record<String, WorkloadSamples> record, WorkloadRef ref) {
        WorkloadWindows state = windows(record.key());
        decider.keep(ref, state, record.value().keep())
                .ifPresent(d -> context.forward(new Record<>(ref.key(), d, record.timestamp())));
        store.put(record.key(), state);
    }

    private WorkloadWindows windows(String key) {
        return live.computeIfAbsent(key, k -> {
            WorkloadWindows stored = store.get(k);
            return stored == null ? new WorkloadWindows() : stored;
        });
    }

    private static long latest(WorkloadSamples batch) {
        long latest = Long.MIN_VALUE;
        for (AttributedSample sample : batch.samples()) {
            latest = Math.max(latest, sample.timeMillis());
        }
        return latest;
    }

    private void evaluate(WorkloadRef ref, WorkloadInfo info, WorkloadWindows state, long now, long timestamp) {
        state.retainDevices((device, d) -> owners.ownerOf(ref.namespace(), d.pod())
                .map(o -> o.workload().equals(ref))
                .orElse(false));
        if (state.missingDevices(owners.gpusPerPod(ref))) {
            return;
        }
        WorkloadVerdict verdict = state.evaluate(now, info.policy(), info.resumedAtMillis());
        if (!state.noticed() && decider.notifies(info)) {
            // At 80 % of the window, or at its close if the coverage of the 80 % fell short but the whole passed.
            long since = verdict.idle()
                    ? verdict.windowStart()
                    : state.pendingSince(now, info.policy(), info.resumedAtMillis());
            if (since != IdlenessWindow.EMPTY) {
                decider.pending(ref, info, state, since, now, verdict.idle())
                        .ifPresent(d -> context.forward(new Record<>(ref.key(), d, timestamp)));
            }
        }
        if (!verdict.idle()) {
            return;
        }
        if (state.keptAt(now)) {
            // The owner kept it: the window keeps counting, the reclaim waits for the first closing sample after.
            metrics.heldByKeep();
            return;
        }
        for (Decision decision : decider.decide(ref, info, state, verdict, now)) {
            context.forward(new Record<>(ref.key(), decision, timestamp));
        }
    }
}
