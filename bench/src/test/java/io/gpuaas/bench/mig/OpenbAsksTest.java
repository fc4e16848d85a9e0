package io.gpuaas.bench.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuGeometryCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trace's pods as asks: the profile each GPU share maps to on the shipped H200 geometry, and the windows. */
class OpenbAsksTest {

    static final GpuGeometry H200 =
            GpuGeometryCatalog.shipped().forModel("NVIDIA H200").orElseThrow();

    @Test
    void shouldMapAShareToTheSmallestProfileWithAtLeastThatMuchComputeWhenGivenGpuMilli() {
        assertThat(OpenbAsks.unitFor(50, H200)).isEqualTo("1g.18gb");
        assertThat(OpenbAsks.unitFor(142, H200)).isEqualTo("1g.18gb");
        assertThat(OpenbAsks.unitFor(143, H200)).isEqualTo("2g.35gb");
        assertThat(OpenbAsks.unitFor(285, H200)).isEqualTo("2g.35gb");
        assertThat(OpenbAsks.unitFor(286, H200)).isEqualTo("3g.71gb");
        assertThat(OpenbAsks.unitFor(428, H200)).isEqualTo("3g.71gb");
        assertThat(OpenbAsks.unitFor(429, H200)).isEqualTo("4g.71gb");
        assertThat(OpenbAsks.unitFor(571, H200)).isEqualTo("4g.71gb");
    }

    @Test
    void shouldMakeAWholeGpuWhenOnlyTheSevenSliceProfileHoldsTheShare() {
        assertThat(OpenbAsks.unitFor(572, H200)).isEqualTo(Ask.WHOLE);
        assertThat(OpenbAsks.unitFor(810, H200)).isEqualTo(Ask.WHOLE);
        assertThat(OpenbAsks.unitFor(1000, H200)).isEqualTo(Ask.WHOLE);
    }

    @Test
    void shouldSkipPodsWithoutGpusAndEndRunningPodsAtTheTraceEndWhenReadingAPodList(@TempDir Path dir)
            throws IOException {
        // Made-up rows in the pod list's format (columns as in the openb header, reordered to check they are read by
        // name).
        Path csv = dir.resolve("pods.csv");
        Files.writeString(csv, """
                name,num_gpu,gpu_milli,cpu_milli,creation_time,deletion_time,scheduled_time
                p-late,1,300,1000,500,900,500
                p-cpu,0,0,4000,10,20,10
                p-eight,8,1000,1000,100,400,100
                p-running,1,100,1000,50,,50
                p-instant,1,1000,1000,700,700,
                """);

        List<Ask> asks = OpenbAsks.read(csv, H200);

        assertThat(asks)
                .extracting(Ask::id, Ask::profile, Ask::quantity, Ask::start, Ask::end)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("p-running", "1g.18gb", 1, 50L, 900L),
                        org.assertj.core.groups.Tuple.tuple("p-eight", Ask.WHOLE, 8, 100L, 400L),
                        org.assertj.core.groups.Tuple.tuple("p-late", "3g.71gb", 1, 500L, 900L),
                        org.assertj.core.groups.Tuple.tuple("p-instant", Ask.WHOLE, 1, 700L, 701L));
        assertThat(asks.get(2).gpuHours(7)).isEqualTo(3.0 / 7 * 400 / 3600);
        assertThat(asks.get(1).gpuHours(7)).isEqualTo(8.0 * 300 / 3600);
    }
}
