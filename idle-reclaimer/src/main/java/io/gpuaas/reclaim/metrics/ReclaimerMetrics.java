package io.gpuaas.reclaim.metrics;

import io.gpuaas.events.reclaim.WorkloadRef;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;

/**
 * Every metric of the idle-reclaimer. Labels are low-cardinality (kind, reason, outcome) except
 * {@code gpuaas_reclaim_workload_idle}, whose per-workload series is the point: it is the idleness signal a KEDA
 * ScaledObject or an SRE dashboard reads, and exists only while a workload is idle.
 */
public final class ReclaimerMetrics {

    private final Counter samples;
    private final Counter windowSamples;
    private final Counter idleDetected;
    private final Counter pendingNotices;
    private final Counter keeps;
    private final Counter heldByKeep;
    private final Counter reclaims;
    private final Counter skipped;
    private final Counter failed;
    private final Counter resumed;
    private final Counter gpusFreed;
    private final Counter invalidAnnotations;
    private final Gauge workloadIdle;
    private final Histogram closeToPatch;
    /** Data points of the per-sample outcomes, resolved once: the label lookup was a few % of the stream thread. */
    private final Map<String, CounterDataPoint> sampleOutcomes;

    public ReclaimerMetrics(PrometheusRegistry registry) {
        samples = Counter.builder()
                .name("gpuaas_reclaim_samples_total")
                .help("GPU samples read, by what became of them")
                .labelNames("result")
                .register(registry);
        sampleOutcomes = Map.of(
                "attributed",
                samples.labelValues("attributed"),
                "unattributed",
                samples.labelValues("unattributed"),
                "not_reclaimable",
                samples.labelValues("not_reclaimable"),
                "unknown_workload",
                samples.labelValues("unknown_workload"));
        windowSamples = Counter.builder()
                .name("gpuaas_reclaim_window_samples_total")
                .help("Attributed samples applied to a workload's windows")
                .register(registry);
        idleDetected = Counter.builder()
                .name("gpuaas_reclaim_idle_detected_total")
                .help("Idle windows closed on a workload")
                .labelNames("kind", "mode")
                .register(registry);
        pendingNotices = Counter.builder()
                .name("gpuaas_reclaim_pending_notices_total")
                .help("ReclaimPending notices sent (a workload idle for 80 % of its window)")
                .labelNames("kind")
                .register(registry);
        keeps = Counter.builder()
                .name("gpuaas_reclaim_keeps_total")
                .help("Keep answers decided by the stream: granted, or refused beyond the day's bound")
                .labelNames("outcome")
                .register(registry);
        heldByKeep = Counter.builder()
                .name("gpuaas_reclaim_held_by_keep_total")
                .help("Idle verdicts whose reclaim a granted keep held back")
                .register(registry);
        reclaims = Counter.builder()
                .name("gpuaas_reclaim_reclaims_total")
                .help("Workloads scaled to zero")
                .labelNames("kind", "outcome")
                .register(registry);
        skipped = Counter.builder()
                .name("gpuaas_reclaim_skipped_total")
                .help("Idle workloads deliberately left running")
                .labelNames("reason")
                .register(registry);
        failed = Counter.builder()
                .name("gpuaas_reclaim_failed_total")
                .help("Reclaims or resumes that failed")
                .labelNames("reason")
                .register(registry);
        resumed = Counter.builder()
                .name("gpuaas_reclaim_resumed_total")
                .help("Reclaimed workloads restored")
                .labelNames("kind", "trigger")
                .register(registry);
        gpusFreed = Counter.builder()
                .name("gpuaas_reclaim_gpus_freed_total")
                .help("GPU devices (GPUs or MIG instances) released by reclaims")
                .register(registry);
        invalidAnnotations = Counter.builder()
                .name("gpuaas_reclaim_invalid_policy_annotations_total")
                .help("Policy annotation values that could not be read and were ignored")
                .register(registry);
        workloadIdle = Gauge.builder()
                .name("gpuaas_reclaim_workload_idle")
                .help("1 while a workload's GPUs are idle (reported or reclaimed)")
                .labelNames("namespace", "kind", "name")
                .register(registry);
        closeToPatch = Histogram.builder()
                .name("gpuaas_reclaim_window_close_to_patch_seconds")
                .help("From the sample that closed an idle window to the scale-down written")
                .classicUpperBounds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
                .register(registry);
    }

    /** Counts one sample by what became of it; the usual outcomes skip the per-call label lookup. */
    public void sample(String result) {
        samples(result, 1);
    }

    /** Counts {@code count} samples by what became of them. */
    public void samples(String result, int count) {
        CounterDataPoint point = sampleOutcomes.get(result);
        (point != null ? point : samples.labelValues(result)).inc(count);
    }

    public void windowSamples(int count) {
        windowSamples.inc(count);
    }

    /** Samples the attribution step has keyed by their workload so far (the bench times from the first). */
    public long attributedSamples() {
        return sampleOutcomes.get("attributed").getLongValue();
    }

    /** Samples applied to windows so far (the bench waits on it). */
    public long windowSamples() {
        return (long) windowSamples.get();
    }

    public void idleDetected(WorkloadRef ref, String mode) {
        idleDetected.labelValues(ref.kind(), mode).inc();
        workloadIdle.labelValues(ref.namespace(), ref.kind(), ref.name()).set(1);
    }

    public void noticed(WorkloadRef ref) {
        pendingNotices.labelValues(ref.kind()).inc();
    }

    public void keep(String outcome) {
        keeps.labelValues(outcome).inc();
    }

    public void heldByKeep() {
        heldByKeep.inc();
    }

    public void active(WorkloadRef ref) {
        workloadIdle.remove(ref.namespace(), ref.kind(), ref.name());
    }

    public void reclaimed(WorkloadRef ref, String outcome, int gpus) {
        reclaims.labelValues(ref.kind(), outcome).inc();
        if ("reclaimed".equals(outcome)) {
            gpusFreed.inc(gpus);
        }
    }

    public void skipped(String reason) {
        skipped.labelValues(reason).inc();
    }

    public void failed(String reason) {
        failed.labelValues(reason).inc();
    }

    public void resumed(WorkloadRef ref, String trigger) {
        resumed.labelValues(ref.kind(), trigger).inc();
        active(ref);
    }

    public void invalidAnnotation() {
        invalidAnnotations.inc();
    }

    public void closeToPatch(double seconds) {
        closeToPatch.observe(Math.max(0, seconds));
    }
}
