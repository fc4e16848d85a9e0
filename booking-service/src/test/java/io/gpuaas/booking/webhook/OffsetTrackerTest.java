package io.gpuaas.booking.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

    private static final TopicPartition TP = new TopicPartition("gpuaas.notices", 0);

    @Test
    void shouldCommitOnlyBelowTheFirstUnfinishedRecordWhenALaterOneFinishedFirst() {
        OffsetTracker tracker = new OffsetTracker();
        OffsetTracker.Partition p = tracker.read(TP, 10, 2);
        tracker.read(TP, 11, 1);
        tracker.read(TP, 12, 0);

        tracker.finished(p, 11);
        tracker.finished(p, 10);
        assertThat(tracker.committable()).containsEntry(TP, 10L);

        tracker.finished(p, 10);
        assertThat(tracker.committable()).containsEntry(TP, 13L);
        assertThat(tracker.pending()).isZero();
    }

    @Test
    void shouldCommitPastRecordsWithoutWebhooksWhenNothingIsOpen() {
        OffsetTracker tracker = new OffsetTracker();
        tracker.read(TP, 5, 0);

        assertThat(tracker.committable()).containsEntry(TP, 6L);
        tracker.committed(tracker.committable());
        assertThat(tracker.committable()).isEmpty();
    }

    @Test
    void shouldForgetOpenDeliveriesWhenThePartitionIsRevoked() {
        OffsetTracker tracker = new OffsetTracker();
        OffsetTracker.Partition old = tracker.read(TP, 1, 3);

        tracker.revoke(TP);
        tracker.read(TP, 1, 1);
        tracker.finished(old, 1);

        assertThat(tracker.pending()).isEqualTo(1);
        assertThat(tracker.committable()).containsEntry(TP, 1L);
    }
}
