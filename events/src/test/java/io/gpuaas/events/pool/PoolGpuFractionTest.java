package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PoolGpuFractionTest {

    @Test
    void shouldWeighAWholeGpuAsOneWhenThePoolHasNoMigProfile() {
        assertThat(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null).gpuFraction())
                .isEqualTo(1.0);
    }

    @Test
    void shouldWeighMigSlicesBySeventhsOnTheA100H100H200Class() {
        assertThat(Pool.gpuFraction("NVIDIA H200", "1g.18gb")).isCloseTo(1.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA H200", "2g.35gb")).isCloseTo(2.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA A100-SXM4-80GB", "3g.40gb")).isCloseTo(3.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA H100 80GB HBM3", "7g.80gb")).isEqualTo(1.0);
        // A compute-instance profile shares the GPU instance's slices: its <N>g part counts.
        assertThat(Pool.gpuFraction("NVIDIA A100-SXM4-40GB", "1c.2g.10gb")).isCloseTo(2.0 / 7, within(1e-12));
    }

    @Test
    void shouldWeighMigSlicesByQuartersOnAnA30() {
        assertThat(Pool.gpuFraction("NVIDIA A30", "1g.6gb")).isEqualTo(0.25);
        assertThat(Pool.gpuFraction("NVIDIA A30", "2g.12gb")).isEqualTo(0.5);
    }

    @Test
    void shouldRefuseAProfileWithoutComputeSlicesWhenAskedItsWeight() {
        assertThatThrownBy(() -> Pool.gpuFraction("NVIDIA H200", "18gb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Pool.gpuFraction("NVIDIA A30", "7g.24gb"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseAPoolWhoseMigProfileNamesNoComputeSlicesWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() -> new Pool("h200-mig-big", "h200-mig", "nvidia.com/mig-big", 7, "NVIDIA H200", "big"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pool h200-mig-big")
                .hasMessageContaining("<N>g");
        assertThat(new Pool("a30-mig", "a30-mig", "nvidia.com/mig-2g.12gb", 4, "NVIDIA A30", "2g.12gb").gpuFraction())
                .isEqualTo(0.5);
    }

    @Test
    void shouldGiveEveryShippedPoolAWeightBetweenZeroAndOne() {
        assertThat(PoolCatalog.load(Optional.empty()).pools())
                .allSatisfy(p -> assertThat(p.gpuFraction()).isBetween(0.0, 1.0).isPositive());
    }

    @Test
    void shouldFindTheDevicesPoolByModelAndProfileWhenAnExporterNamesTheModelInFull() {
        PoolCatalog catalog = new PoolCatalog(List.of(
                new Pool("h100", "h100", "nvidia.com/gpu", 8, "NVIDIA H100", null),
                new Pool("h100-mig-1g.10gb", "h100-1g", "nvidia.com/mig-1g.10gb", 7, "NVIDIA H100", "1g.10gb")));

        assertThat(catalog.forDevice("NVIDIA H100 80GB HBM3", null))
                .map(Pool::id)
                .contains("h100");
        assertThat(catalog.forDevice("NVIDIA H100 80GB HBM3", "1g.10gb"))
                .map(Pool::id)
                .contains("h100-mig-1g.10gb");
        assertThat(catalog.forDevice("Tesla T4", null)).isEmpty();
        assertThat(catalog.forDevice("NVIDIA H100 80GB HBM3", "2g.20gb")).isEmpty();
    }
}
