package io.gpuaas.reclaim.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PendingIntentsTest {

    private static final TopicPartition P0 = new TopicPartition("gpuaas.reclaim-intents", 0);
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static WorkloadRef ref(int i) {
        return new WorkloadRef("team-a", "InferenceService", "isvc-" + i);
    }

    private static ReclaimIntent.ReclaimRequested request(int i, String window) {
        return new ReclaimIntent.ReclaimRequested(
                ref(i), ref(i).key() + "@" + window, "team-a", List.of("predictor"), 1, 60, false, T, T);
    }

    private static ReclaimEvent done(int i) {
        return new ReclaimEvent.ReclaimSkipped(ref(i), "team-a", "NOTHING_TO_SCALE", "", T);
    }

    @Test
    void shouldCompleteTheReadWithTheOutcomeWhenTheIntentIsFinished() {
        PendingIntents pending = new PendingIntents();
        PendingIntents.Read read = pending.read(P0, request(0, "w"));

        assertThat(read.wake()).isTrue();
        assertThat(read.done().toCompletableFuture()).isNotDone();
        assertThat(pending.finish(pending.take(ref(0)), done(0))).isTrue();

        assertThat(read.done().toCompletableFuture().join().event()).isEqualTo(done(0));
        assertThat(pending.open()).isZero();
    }

    @Test
    void shouldCompleteAWindowDeliveredTwiceAtOnceWithNothingToPublish() {
        PendingIntents pending = new PendingIntents();
        pending.read(P0, request(0, "w"));
        pending.finish(pending.take(ref(0)), done(0));

        PendingIntents.Read again = pending.read(P0, request(0, "w"));

        assertThat(again.wake()).isFalse();
        assertThat(again.done().toCompletableFuture().join()).isNull();
    }

    @Test
    void shouldNumberReportsAndOutcomesInTheOrderTheyHappened() {
        PendingIntents pending = new PendingIntents();
        CompletionStage<PendingIntents.Sequenced> first =
                pending.read(P0, request(0, "w1")).done();
        pending.read(P0, request(0, "w2"));
        pending.finish(pending.take(ref(0)), done(0));
        PendingIntents.Entry second = pending.take(ref(0));
        pending.reportFailure(second, new ReclaimEvent.ReclaimFailed(ref(0), "team-a", "API_ERROR", "timeout", T));

        List<PendingIntents.Sequenced> reports = pending.drainReports();

        assertThat(reports).singleElement().satisfies(r -> assertThat(r.sequence())
                .isGreaterThan(first.toCompletableFuture().join().sequence()));
    }

    @Test
    void shouldDropTheOutcomeOfAnIntentWhosePartitionWasRevoked() {
        PendingIntents pending = new PendingIntents();
        CompletionStage<PendingIntents.Sequenced> read =
                pending.read(P0, request(0, "w")).done();
        PendingIntents.Entry inFlight = pending.take(ref(0));
        pending.reportFailure(inFlight, new ReclaimEvent.ReclaimFailed(ref(0), "team-a", "API_ERROR", "x", T));

        pending.revoked(List.of(P0));

        assertThat(pending.finish(inFlight, done(0))).isFalse();
        assertThat(read.toCompletableFuture()).isNotDone();
        assertThat(pending.drainReports()).isEmpty();
        assertThat(pending.workloads()).isEmpty();
    }

    @Test
    void shouldApplyAFinishedWindowAgainWhenItIsReadAgainAfterItsPartitionWasRevoked() {
        // A session that fails its transaction ends with revoked(...) and resumes from the committed offset: the
        // intent finished there was never published, so reading it again must not be taken for a duplicate.
        PendingIntents pending = new PendingIntents();
        pending.read(P0, request(0, "w"));
        pending.finish(pending.take(ref(0)), done(0));

        pending.revoked(List.of(P0));
        PendingIntents.Read again = pending.read(P0, request(0, "w"));

        assertThat(again.wake()).isTrue();
        assertThat(again.done().toCompletableFuture()).isNotDone();
        assertThat(pending.finish(pending.take(ref(0)), done(0))).isTrue();
        assertThat(again.done().toCompletableFuture().join().event()).isEqualTo(done(0));
    }

    @Test
    void shouldStillDropADuplicateWindowOfAPartitionItKeeps() {
        PendingIntents pending = new PendingIntents();
        TopicPartition p1 = new TopicPartition("gpuaas.reclaim-intents", 1);
        pending.read(P0, request(0, "w"));
        pending.finish(pending.take(ref(0)), done(0));

        pending.revoked(List.of(p1));

        assertThat(pending.read(P0, request(0, "w")).wake()).isFalse();
    }
}
