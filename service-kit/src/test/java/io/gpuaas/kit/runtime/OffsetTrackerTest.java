package io.gpuaas.kit.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.kit.runtime.OffsetTracker.Partition;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

    private static final TopicPartition P0 = new TopicPartition("gpuaas.work", 0);

    /** Opens offsets 10..10+n-1 of a partition committed at 10 and finishes those listed (result "r<offset>"). */
    private static OffsetTracker<String> openAndFinish(int n, int... finished) {
        OffsetTracker<String> tracker = new OffsetTracker<>();
        Partition<String> p = tracker.assigned(P0, new OffsetAndMetadata(10));
        for (int i = 0; i < n; i++) {
            tracker.open(p, 10 + i);
        }
        for (int i : finished) {
            tracker.finished(p, 10 + i, "r" + (10 + i));
        }
        return tracker;
    }

    @Test
    void shouldCommitBeforeTheFirstOpenRecordAndNameTheOpenOnesAfterIt() {
        OffsetTracker<String> tracker = openAndFinish(5, 0, 2, 4);

        OffsetAndMetadata position = tracker.drain().offsets().get(P0);

        assertThat(position.offset()).isEqualTo(11);
        assertThat(position.metadata()).isEqualTo("v1;next=15;open=0,2");
    }

    @Test
    void shouldCommitPastEverythingOnceTheEarliestOpenRecordFinishesLast() {
        OffsetTracker<String> tracker = openAndFinish(3, 2, 1);
        Partition<String> p = tracker.held(P0);
        assertThat(tracker.drain().offsets().get(P0).offset()).isEqualTo(10);

        tracker.finished(p, 10, null);

        assertThat(tracker.drain().offsets()).containsEntry(P0, new OffsetAndMetadata(13, ""));
        assertThat(tracker.open()).isZero();
    }

    @Test
    void shouldHandOutOnlyPositionsThatMovedSinceTheLastDrain() {
        OffsetTracker<String> tracker = openAndFinish(2, 0);
        assertThat(tracker.drain().offsets()).containsKey(P0);

        assertThat(tracker.drain().isEmpty()).isTrue();
    }

    @Test
    void shouldHandOutEachResultOnceWithThePositionThatCoversIt() {
        OffsetTracker<String> tracker = openAndFinish(3, 1, 2);

        OffsetTracker.Drain<String> first = tracker.drain();
        tracker.finished(tracker.held(P0), 10, "r10");
        OffsetTracker.Drain<String> second = tracker.drain();

        assertThat(first.results()).extracting(OffsetTracker.Finished::result).containsExactly("r11", "r12");
        assertThat(second.results()).extracting(OffsetTracker.Finished::result).containsExactly("r10");
        assertThat(second.offsets().get(P0).offset()).isEqualTo(13);
    }

    @Test
    void shouldSkipWhatThePreviousOwnerFinishedWhenAPartitionMoves() {
        OffsetAndMetadata committed =
                openAndFinish(5, 0, 2, 4).drain().offsets().get(P0);
        OffsetTracker<String> next = new OffsetTracker<>();
        Partition<String> p = next.assigned(P0, committed);

        List<Boolean> opened = List.of(11L, 12L, 13L, 14L, 15L).stream()
                .map(o -> next.open(p, o))
                .toList();

        assertThat(opened).containsExactly(true, false, true, false, true);
        assertThat(next.open()).isEqualTo(3);
    }

    @Test
    void shouldKeepWhatThePreviousOwnerLeftOpenWhenCommittingBeforeReadingIt() {
        OffsetAndMetadata committed =
                openAndFinish(5, 0, 2, 4).drain().offsets().get(P0);
        OffsetTracker<String> next = new OffsetTracker<>();
        Partition<String> p = next.assigned(P0, committed);
        next.open(p, 11);
        next.finished(p, 11, null);

        OffsetAndMetadata position = next.drain().offsets().get(P0);

        assertThat(position.offset()).as("offset 13 is still open").isEqualTo(13);
        assertThat(position.metadata()).isEqualTo("v1;next=15;open=0");
    }

    @Test
    void shouldRedoEverythingFromTheCommittedOffsetWhenTheMetadataIsForeign() {
        OffsetTracker<String> tracker = new OffsetTracker<>();
        Partition<String> p = tracker.assigned(P0, new OffsetAndMetadata(7, "written by someone else"));

        assertThat(tracker.open(p, 7)).isTrue();
        assertThat(tracker.open(p, 8)).isTrue();
    }

    @Test
    void shouldStartWithNothingKnownOnAPartitionNeverCommitted() {
        OffsetTracker<String> tracker = new OffsetTracker<>();
        Partition<String> p = tracker.assigned(P0, null);
        assertThat(tracker.drain().offsets()).isEmpty();

        tracker.open(p, 0);

        assertThat(tracker.drain().offsets()).containsEntry(P0, new OffsetAndMetadata(0, "v1;next=1;open=0"));
    }

    @Test
    void shouldIgnoreAFinishOnARevokedAssignmentAndForgetItsResults() {
        OffsetTracker<String> tracker = openAndFinish(2, 1);
        Partition<String> old = tracker.held(P0);

        tracker.revoke(List.of(P0));
        Partition<String> again = tracker.assigned(P0, new OffsetAndMetadata(10));
        tracker.open(again, 10);
        tracker.finished(old, 10, "late");

        assertThat(tracker.open()).isEqualTo(1);
        OffsetTracker.Drain<String> drain = tracker.drain();
        assertThat(drain.results()).isEmpty();
        assertThat(drain.offsets().get(P0).offset()).isEqualTo(10);
    }

    @Test
    void shouldCallAPartitionCrowdedAtTheBound() {
        assertThat(openAndFinish(99).crowded(100)).isEmpty();
        assertThat(openAndFinish(100).crowded(100)).containsExactly(P0);
        assertThat(openAndFinish(100, 0).crowded(100)).isEmpty();
    }

    @Test
    void shouldKeepTheMetadataWithinWhatABrokerAcceptsAndClaimNoMoreThanItNames() {
        // Every other record of 4,000 open: their deltas cannot all be named.
        int[] everyOther = IntStream.range(0, 4_000).filter(i -> i % 2 == 1).toArray();
        OffsetTracker<String> tracker = openAndFinish(4_000, everyOther);

        OffsetTracker.Drain<String> drain = tracker.drain();
        OffsetAndMetadata position = drain.offsets().get(P0);
        OffsetTracker<String> next = new OffsetTracker<>();
        Partition<String> p = next.assigned(P0, position);

        assertThat(position.metadata().length()).isLessThanOrEqualTo(OffsetTracker.METADATA_BUDGET);
        long claimed = Long.parseLong(position.metadata().replaceAll(".*next=(\\d+);.*", "$1"));
        assertThat(claimed).isLessThan(10 + 4_000);
        assertThat(LongStream.range(10, 10 + 4_000).filter(o -> o % 2 == 0).allMatch(o -> next.open(p, o)))
                .as("every open record is redone")
                .isTrue();
        assertThat(drain.results())
                .as("no result is handed out beyond what the position covers")
                .allMatch(f -> f.offset() < claimed);
    }

    @Test
    void shouldWaitUntilNoRecordIsOpen() throws Exception {
        OffsetTracker<String> tracker = openAndFinish(1);
        Thread finisher = Thread.ofVirtual().start(() -> tracker.finished(tracker.held(P0), 10, null));

        assertThat(tracker.awaitNoneOpen(java.time.Duration.ofSeconds(30).toNanos()))
                .isTrue();
        finisher.join();
    }
}
