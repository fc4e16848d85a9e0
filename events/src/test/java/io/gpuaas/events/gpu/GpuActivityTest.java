package io.gpuaas.events.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GpuActivityTest {

    private static GpuScrape.Device device(double engine, Double decoder, Double encoder) {
        return new GpuScrape.Device(
                        "u",
                        0,
                        "NVIDIA H200",
                        null,
                        null,
                        null,
                        "ns",
                        "p",
                        "c",
                        engine,
                        "GR_ENGINE_ACTIVE",
                        40960.0,
                        102400.0,
                        120.0)
                .withMedia(decoder, encoder);
    }

    @Test
    void shouldKeepALiveSmallKernelProcessBusyAndAnEmptyGpuIdleWhenTheDefaultThresholdJudges() {
        double t = GpuActivity.DEFAULT_IDLE_THRESHOLD;

        assertThat(GpuActivity.busy(0.0004, false, t))
                .as("empty or memory-holding GPU")
                .isFalse();
        assertThat(GpuActivity.busy(0.043, false, t)).as("steady small kernels").isTrue();
        assertThat(Double.parseDouble(GpuActivity.DEFAULT_IDLE_THRESHOLD_TEXT)).isEqualTo(t);
    }

    @Test
    void shouldCountADeviceBusyWhenOnlyItsDecoderOrEncoderWorks() {
        assertThat(GpuActivity.mediaBusy(device(0.0002, 46.0, 0.0))).isTrue();
        assertThat(GpuActivity.mediaBusy(device(0.0002, 0.0, 3.0))).isTrue();
        assertThat(GpuActivity.mediaBusy(device(0.0002, 0.0, 0.0))).isFalse();
        assertThat(GpuActivity.mediaBusy(device(0.0002, null, null)))
                .as("not reported")
                .isFalse();
        assertThat(GpuActivity.busy(0.0002, true, GpuActivity.DEFAULT_IDLE_THRESHOLD))
                .isTrue();
    }
}
