package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.Binary;
import io.gpuaas.reclaim.model.WorkloadSamples;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadSamplesSerdeTest {

    private static final WorkloadRef RAY = new WorkloadRef("team-b", "RayCluster", "train");

    @Test
    void shouldReadBackEverySampleOfTheBatchWhenAWorkloadHoldsSeveralDevicesOfANode() {
        WorkloadSamples batch = new WorkloadSamples(
                RAY,
                List.of(
                        new AttributedSample(RAY, "n1/GPU-a", "train-worker-0", "workers", 5_000, 0.25, 1_000),
                        new AttributedSample(RAY, "n1/GPU-b/3", "train-worker-1", "workers", 5_000, null, 2_000),
                        new AttributedSample(
                                RAY, "n1/GPU-c", "train-worker-1", "workers", 5_000, 0.0002, 2_000, true, false),
                        new AttributedSample(
                                RAY, "n1/GPU-d", "train-worker-1", "workers", 5_000, 0.0, 2_000, false, true)));

        WorkloadSamples read = WorkloadSamplesSerde.read(WorkloadSamplesSerde.write(batch));

        assertThat(read).isEqualTo(batch);
    }

    @Test
    void shouldStillReadAOneSampleRecordWhenItWasWrittenBeforeSamplesWereBatched() {
        // Version 1, as the repartition topic held it: one sample per record.
        Binary.Writer v1 = new Binary.Writer(64);
        v1.writeByte(1);
        v1.writeUTF("team-b");
        v1.writeUTF("RayCluster");
        v1.writeUTF("train");
        v1.writeUTF("n1/GPU-a");
        v1.writeUTF("train-worker-0");
        v1.writeUTF("workers");
        v1.writeLong(5_000);
        v1.writeDouble(Double.NaN);
        v1.writeLong(1_000);

        assertThat(WorkloadSamplesSerde.read(v1.toByteArray()))
                .isEqualTo(new WorkloadSamples(
                        RAY,
                        List.of(new AttributedSample(
                                RAY, "n1/GPU-a", "train-worker-0", "workers", 5_000, null, 1_000))));
    }

    @Test
    void shouldReadAVersion2BatchAsEngineActivitySamplesWhenItWasWrittenBeforeTheFlags() {
        Binary.Writer v2 = new Binary.Writer(64);
        v2.writeByte(2);
        v2.writeUTF("team-b");
        v2.writeUTF("RayCluster");
        v2.writeUTF("train");
        v2.writeInt(1);
        v2.writeUTF("n1/GPU-a");
        v2.writeUTF("train-worker-0");
        v2.writeUTF("workers");
        v2.writeLong(5_000);
        v2.writeDouble(0.5);
        v2.writeLong(1_000);

        assertThat(WorkloadSamplesSerde.read(v2.toByteArray()).samples())
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.utilization()).isEqualTo(0.5);
                    assertThat(s.mediaBusy()).isFalse();
                    assertThat(s.gpuUtilOnly()).isFalse();
                });
    }

    @Test
    void shouldRefuseAnUnknownVersionWhenTheBytesAreNotOurs() {
        assertThatThrownBy(() -> WorkloadSamplesSerde.read(new byte[] {9, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version 9");
    }

    @Test
    void shouldReadBackAKeepAnswerWithAndWithoutATenantWhenItRidesTheSamplesRepartition() {
        KeepRequested ofTeam =
                new KeepRequested(RAY, "team-b", "req-1", 4, "alice", Instant.parse("2026-11-28T10:15:30.123Z"));
        KeepRequested ofAdmin =
                new KeepRequested(RAY, null, "req-2", 8, "admin", Instant.parse("2026-11-28T23:59:59Z"));

        for (KeepRequested keep : List.of(ofTeam, ofAdmin)) {
            WorkloadSamples read = WorkloadSamplesSerde.read(WorkloadSamplesSerde.write(WorkloadSamples.keep(keep)));

            assertThat(read.keep()).isEqualTo(keep);
            assertThat(read.workload()).isEqualTo(RAY);
            assertThat(read.samples()).isEmpty();
        }
    }
}
