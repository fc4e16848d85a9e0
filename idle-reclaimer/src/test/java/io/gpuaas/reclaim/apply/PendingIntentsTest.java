package io.gpuaas.reclaim.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PendingIntentsTest {

    private static final TopicPartition P0 = new TopicPartition("gpuaas.reclaim-intents", 0);
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static WorkloadRef ref(int i) {
        return new WorkloadRef("team-a", "InferenceService", "isvc-" + i);
    }

    private static ReclaimIntent.ReclaimRequested request(int i) {
        return new ReclaimIntent.ReclaimRequested(
                ref(i), ref(i).key() + "@w", "team-a", List.of("predictor"), 1, 60, false, T, T);
    }

    private static ReclaimEvent done(int i) {
        return new ReclaimEvent.ReclaimSkipped(ref(i), "team-a", "NOTHING_TO_SCALE", "", T);
    }

    /** Reads intents 0..n-1 at offsets 10.. and finishes those listed. */
    private static PendingIntents readAndFinish(int n, int... finished) {
        PendingIntents pending = new PendingIntents();
        pending.assigned(P0, new OffsetAndMetadata(10));
        for (int i = 0; i < n; i++) {
            pending.read(P0, 10 + i, request(i));
        }
        for (int i : finished) {
            pending.finish(pending.take(ref(i)), done(i));
        }
        return pending;
    }

    @Test
    void shouldCommitBeforeTheFirstOpenIntentAndNameTheOpenOnesAfterIt() {
        PendingIntents pending = readAndFinish(5, 0, 2, 4);

        OffsetAndMetadata position = pending.drain().offsets().get(P0);

        assertThat(position.offset()).isEqualTo(11);
        assertThat(position.metadata()).isEqualTo("v1;next=15;open=0,2");
    }

    @Test
    void shouldSkipWhatThePreviousOwnerFinishedWhenAPartitionMoves() {
        OffsetAndMetadata committed =
                readAndFinish(5, 0, 2, 4).drain().offsets().get(P0);
        PendingIntents next = new PendingIntents();
        next.assigned(P0, committed);

        List<Boolean> applied = List.of(11, 12, 13, 14, 15).stream()
                .map(offset -> next.read(P0, offset, request(offset - 10)))
                .toList();

        assertThat(applied).containsExactly(true, false, true, false, true);
        assertThat(next.workloads()).containsExactlyInAnyOrder(ref(1), ref(3), ref(5));
    }

    @Test
    void shouldKeepWhatThePreviousOwnerLeftOpenWhenCommittingBeforeReadingIt() {
        OffsetAndMetadata committed =
                readAndFinish(5, 0, 2, 4).drain().offsets().get(P0);
        PendingIntents next = new PendingIntents();
        next.assigned(P0, committed);
        next.read(P0, 11, request(1));
        next.finish(next.take(ref(1)), done(1));

        OffsetAndMetadata position = next.drain().offsets().get(P0);

        assertThat(position.offset()).as("offset 13 is still open").isEqualTo(13);
        assertThat(position.metadata()).isEqualTo("v1;next=15;open=0");
    }

    @Test
    void shouldCommitPastEverythingWhenNothingIsOpen() {
        OffsetAndMetadata position = readAndFinish(3, 0, 1, 2).drain().offsets().get(P0);

        assertThat(position).isEqualTo(new OffsetAndMetadata(13, ""));
    }

    @Test
    void shouldDropTheOutcomeOfAnIntentWhosePartitionWasRevoked() {
        PendingIntents pending = readAndFinish(1);
        PendingIntents.Entry inFlight = pending.take(ref(0));

        pending.revoked(List.of(P0));

        assertThat(pending.finish(inFlight, done(0))).isFalse();
        assertThat(pending.drain().isEmpty()).isTrue();
    }

    @Test
    void shouldPauseAPartitionWithTooManyOpenIntents() {
        assertThat(readAndFinish(PendingIntents.MAX_OPEN - 1).crowded()).isEmpty();
        assertThat(readAndFinish(PendingIntents.MAX_OPEN).crowded()).containsExactly(P0);
    }

    @Test
    void shouldFitTheCommitMetadataOfAFullPartitionInWhatABrokerAccepts() {
        int[] everyOther = java.util.stream.IntStream.range(0, 2 * PendingIntents.MAX_OPEN)
                .filter(i -> i % 2 == 1)
                .toArray();
        PendingIntents pending = readAndFinish(2 * PendingIntents.MAX_OPEN, everyOther);

        // offset.metadata.max.bytes defaults to 4096.
        assertThat(pending.drain().offsets().get(P0).metadata().length()).isLessThan(4096);
    }
}
