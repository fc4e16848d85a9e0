package io.gpuaas.local.kueue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One admission pass's preemptions: for a pending Workload that does not fit, asks {@link Preemptor} whom to evict,
 * evicts them (Kueue's conditions, quota released, counted pending again) and admits the Workload in their place.
 * Kueue admits the preemptor in a later cycle, once the evicted jobs stopped; the stand-in stops them in this pass,
 * so it admits at once, before a requeued victim could take the room back.
 */
final class Preemptions {

    // A Workload admitted earlier in this pass has no condition yet: it is the most recently admitted of all.
    private static final String ADMITTED_NOW = "9999-12-31T23:59:59Z";

    private final QuotaModel model;
    private final QueueState state;
    private final Evictions evictions;

    Preemptions(QuotaModel model, QueueState state, Evictions evictions) {
        this.model = model;
        this.state = state;
        this.evictions = evictions;
    }

    /**
     * Evicts what {@code workload} needs and returns its admission; empty (nothing evicted) when preemption cannot
     * make it fit. {@code running} (admitted Workloads by key) loses the evicted ones.
     */
    Optional<Admission> preemptFor(WorkloadView workload, String clusterQueue, Map<String, WorkloadView> running) {
        List<Preemptor.Running> admitted =
                running.values().stream().map(Preemptions::running).toList();
        Optional<Preemptor.Plan> plan = new Preemptor(model)
                .plan(clusterQueue, workload.priority(), workload.creationTimestamp(), workload.requests(), admitted);
        if (plan.isEmpty()) {
            return Optional.empty();
        }
        String uid = workload.resource().getMetadata().getUid();
        for (Preemptor.Target target : plan.get().targets()) {
            WorkloadView victim = running.remove(target.workload().key());
            Admission.Admitted held = victim.admission().orElseThrow();
            evictions.preempt(victim, target.reason(), uid == null ? "" : uid);
            model.release(held.clusterQueue(), held.podSets());
            state.preempted(victim, held);
        }
        Admission admission = model.tryAdmit(clusterQueue, workload.requests());
        return Optional.of(admission);
    }

    private static Preemptor.Running running(WorkloadView workload) {
        Admission.Admitted admission = workload.admission().orElseThrow();
        String reservedAt = workload.reservedAt();
        return new Preemptor.Running(
                KueueStandIn.key(workload),
                admission.clusterQueue(),
                workload.priority(),
                workload.creationTimestamp(),
                reservedAt.isEmpty() ? ADMITTED_NOW : reservedAt,
                admission.podSets());
    }
}
