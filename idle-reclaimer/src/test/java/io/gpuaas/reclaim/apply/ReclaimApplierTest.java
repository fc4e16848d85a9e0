package io.gpuaas.reclaim.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kit.runtime.OffsetTracker;
import io.gpuaas.kit.runtime.ReconcileLoop.Outcome;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.ScaleOutcome;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.ActionRateLimiter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReclaimApplierTest {

    private static final TopicPartition P0 = new TopicPartition("gpuaas.reclaim-intents", 0);
    private static final WorkloadRef CHAT = new WorkloadRef("team-a", "InferenceService", "chat");
    private static final WorkloadRef TRAIN = new WorkloadRef("team-a", "RayCluster", "train");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final ScaleOutcome APPLIED = new ScaleOutcome.Applied(
            List.of(new ReclaimEvent.ScaledGroup("predictor", null, 1, 0)), "minReplicas to 0", false);

    private final PendingIntents pending = new PendingIntents();
    private final OffsetTracker<PendingIntents.Sequenced> tracker = new OffsetTracker<>();
    private OffsetTracker.Partition<PendingIntents.Sequenced> partition;
    private final List<String> writes = new ArrayList<>();
    private final Deque<ScaleOutcome> outcomes = new ArrayDeque<>();
    private final AtomicLong now = new AtomicLong(0);
    private ReclaimApplier applier;

    @BeforeEach
    void setUp() {
        partition = tracker.assigned(P0, null);
        applier = applier(10, Mode.DIRECT, false);
    }

    private ReclaimApplier applier(int perMinute, Mode mode, boolean dryRun) {
        return new ReclaimApplier(
                pending,
                (ref, groups, windowId, dry) -> {
                    writes.add(windowId + (dry ? " dry" : ""));
                    return outcomes.isEmpty() ? APPLIED : outcomes.poll();
                },
                new ActionRateLimiter(perMinute, now::get),
                mode,
                dryRun,
                new ReclaimerMetrics(new PrometheusRegistry()),
                CLOCK,
                Duration.ofSeconds(30),
                () -> true);
    }

    private static ReclaimIntent.ReclaimRequested request(WorkloadRef ref, String window, boolean dryRun) {
        return new ReclaimIntent.ReclaimRequested(
                ref,
                ref.key() + "@" + window,
                "team-a",
                List.of("predictor"),
                1,
                900,
                dryRun,
                Instant.parse("2025-12-31T23:59:00Z"),
                CLOCK.instant());
    }

    /** Reads an intent as the intake does: opened in the tracker, finished when the applier finishes it. */
    private void read(long offset, ReclaimIntent intent) {
        if (tracker.open(partition, offset)) {
            pending.read(P0, intent).done().thenAccept(done -> tracker.finished(partition, offset, done));
        }
    }

    /** What the intake's next transaction would publish and commit. */
    private record Batch(List<ReclaimEvent> events, Map<TopicPartition, OffsetAndMetadata> offsets) {}

    private Batch drain() {
        OffsetTracker.Drain<PendingIntents.Sequenced> drain = tracker.drain();
        List<PendingIntents.Sequenced> events = new ArrayList<>(pending.drainReports());
        drain.results().forEach(f -> events.add(f.result()));
        events.sort(Comparator.comparingLong(PendingIntents.Sequenced::sequence));
        return new Batch(events.stream().map(PendingIntents.Sequenced::event).toList(), drain.offsets());
    }

    @Test
    void shouldPublishReclaimedWithTheOffsetPastItWhenTheScaleDownIsApplied() throws Exception {
        read(0, request(CHAT, "w1", false));

        assertThat(applier.reconcile(CHAT)).isEqualTo(Outcome.done());

        Batch batch = drain();
        assertThat(writes).containsExactly("team-a/InferenceService/chat@w1");
        assertThat(batch.events()).singleElement().isInstanceOfSatisfying(ReclaimEvent.Reclaimed.class, r -> {
            assertThat(r.gpusFreed()).isEqualTo(1);
            assertThat(r.idleSeconds()).isEqualTo(900);
            assertThat(r.dryRun()).isFalse();
        });
        assertThat(batch.offsets().get(P0).offset()).isEqualTo(1);
    }

    @Test
    void shouldApplyAWindowOnceWhenItsIntentIsDeliveredTwice() throws Exception {
        read(0, request(CHAT, "w1", false));
        applier.reconcile(CHAT);
        read(1, request(CHAT, "w1", false));

        applier.reconcile(CHAT);

        assertThat(writes).hasSize(1);
        Batch batch = drain();
        assertThat(batch.events()).hasSize(1);
        assertThat(batch.offsets().get(P0).offset()).isEqualTo(2);
    }

    @Test
    void shouldReportTheRateLimitOnceAndApplyWhenTheCapAllowsAgain() throws Exception {
        applier = applier(1, Mode.DIRECT, false);
        read(0, request(TRAIN, "w0", false));
        read(1, request(CHAT, "w1", false));
        applier.reconcile(TRAIN);

        Outcome waiting = applier.reconcile(CHAT);
        applier.reconcile(CHAT);

        assertThat(waiting).isEqualTo(Outcome.requeueAfter(Duration.ofMinutes(1)));
        Batch first = drain();
        assertThat(first.events())
                .filteredOn(ReclaimEvent.ReclaimSkipped.class::isInstance)
                .singleElement()
                .satisfies(e ->
                        assertThat(((ReclaimEvent.ReclaimSkipped) e).reason()).isEqualTo("RATE_LIMITED"));
        assertThat(first.offsets().get(P0).offset())
                .as("the waiting intent is not committed")
                .isEqualTo(1);

        now.set(60_000);
        assertThat(applier.reconcile(CHAT)).isEqualTo(Outcome.done());

        assertThat(writes).containsExactly("team-a/RayCluster/train@w0", "team-a/InferenceService/chat@w1");
        assertThat(drain().events()).singleElement().isInstanceOf(ReclaimEvent.Reclaimed.class);
    }

    @Test
    void shouldRetryAFailedUpdateAndReportTheFailureOnce() throws Exception {
        outcomes.add(new ScaleOutcome.Failed("API_ERROR", "timeout"));
        outcomes.add(new ScaleOutcome.Failed("API_ERROR", "timeout"));
        read(0, request(CHAT, "w1", false));

        Outcome first = applier.reconcile(CHAT);
        Outcome second = applier.reconcile(CHAT);
        Outcome third = applier.reconcile(CHAT);

        assertThat(List.of(first, second)).allSatisfy(o -> assertThat(o)
                .isInstanceOfSatisfying(Outcome.RequeueAfter.class, r -> assertThat(r.delay())
                        .isBetween(Duration.ofMillis(500), Duration.ofSeconds(30))));
        assertThat(third).isEqualTo(Outcome.done());
        assertThat(drain().events())
                .extracting(e -> e.getClass().getSimpleName())
                .containsExactly("ReclaimFailed", "Reclaimed");
        assertThat(writes).hasSize(3).allMatch(w -> w.equals("team-a/InferenceService/chat@w1"));
    }

    @Test
    void shouldEndTheIntentWhenTheWorkloadIsGone() throws Exception {
        outcomes.add(new ScaleOutcome.Failed("NOT_FOUND", "team-a/InferenceService/chat does not exist"));
        read(0, request(CHAT, "w1", false));

        assertThat(applier.reconcile(CHAT)).isEqualTo(Outcome.done());

        Batch batch = drain();
        assertThat(batch.events())
                .singleElement()
                .isInstanceOfSatisfying(ReclaimEvent.ReclaimFailed.class, f -> assertThat(f.reason())
                        .isEqualTo("NOT_FOUND"));
        assertThat(batch.offsets().get(P0).offset()).isEqualTo(1);
    }

    @Test
    void shouldSkipAnIntentWithdrawnBeforeItWasApplied() throws Exception {
        applier = applier(1, Mode.DIRECT, false);
        read(0, request(TRAIN, "w0", false));
        read(1, request(CHAT, "w1", false));
        applier.reconcile(TRAIN);
        applier.reconcile(CHAT);
        read(2, new ReclaimIntent.ReclaimWithdrawn(CHAT, CHAT.key() + "@w1", CLOCK.instant()));

        applier.reconcile(CHAT);

        assertThat(writes).containsExactly("team-a/RayCluster/train@w0");
        assertThat(drain().events()).last().isInstanceOfSatisfying(ReclaimEvent.ReclaimSkipped.class, s -> assertThat(
                        s.reason())
                .isEqualTo("BUSY_AGAIN"));
    }

    @Test
    void shouldWriteNothingWhenTheIntentOrThisInstanceIsADryRun() throws Exception {
        read(0, request(CHAT, "w1", true));
        applier.reconcile(CHAT);
        applier = applier(10, Mode.DIRECT, true);
        read(1, request(TRAIN, "w2", false));
        applier.reconcile(TRAIN);

        assertThat(writes).allMatch(w -> w.endsWith(" dry")).hasSize(2);
        assertThat(drain().events()).allSatisfy(e -> assertThat(((ReclaimEvent.Reclaimed) e).dryRun())
                .isTrue());
    }

    @Test
    void shouldScaleNothingInKedaMode() throws Exception {
        applier = applier(10, Mode.KEDA, false);
        read(0, request(CHAT, "w1", false));

        applier.reconcile(CHAT);

        assertThat(writes).isEmpty();
        assertThat(drain().events()).singleElement().isInstanceOf(ReclaimEvent.ReclaimSkipped.class);
    }
}
