package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
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
    void shouldWeighAStaticMigUnitAsOneOverTheMostInstancesItsGpuHoldsWhenTheGeometryIsKnown() {
        assertThat(Pool.gpuFraction("NVIDIA H200", "1g.18gb")).isCloseTo(1.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA H200", "1g.35gb")).isEqualTo(0.25);
        assertThat(Pool.gpuFraction("NVIDIA H200", "2g.35gb")).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA H200", "3g.71gb")).isEqualTo(0.5);
        assertThat(Pool.gpuFraction("NVIDIA H200", "4g.71gb")).isEqualTo(1.0);
        assertThat(Pool.gpuFraction("NVIDIA A100-SXM4-80GB", "3g.40gb")).isEqualTo(0.5);
        assertThat(Pool.gpuFraction("NVIDIA H100 80GB HBM3", "7g.80gb")).isEqualTo(1.0);
        // A compute-instance profile weighs as the GPU instance it runs in.
        assertThat(Pool.gpuFraction("NVIDIA H100 80GB HBM3", "1c.2g.20gb")).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA A30", "1g.6gb")).isEqualTo(0.25);
        assertThat(Pool.gpuFraction("NVIDIA A30", "2g.12gb")).isEqualTo(0.5);
        // A GPU's media engines go to one +me instance, so a pool of them alone takes a GPU per unit.
        assertThat(Pool.gpuFraction("NVIDIA A30", "2g.12gb+me")).isEqualTo(1.0);
    }

    @Test
    void shouldWeighByComputeSlicesAsBeforeWhenTheGeometryCatalogDoesNotListTheModel() {
        assertThat(Pool.gpuFraction("NVIDIA A100-SXM4-40GB", "1c.2g.10gb")).isCloseTo(2.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA H100", "3g.40gb")).isCloseTo(3.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction(null, "2g.35gb")).isCloseTo(2.0 / 7, within(1e-12));
        assertThat(Pool.gpuFraction("NVIDIA A30X", "2g.12gb")).isEqualTo(0.5);
    }

    @Test
    void shouldRefuseAProfileTheGpuDoesNotOfferWhenAskedItsWeight() {
        assertThatThrownBy(() -> Pool.gpuFraction("NVIDIA H200", "18gb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NVIDIA H200 offers no MIG profile 18gb");
        assertThatThrownBy(() -> Pool.gpuFraction("NVIDIA A30", "7g.24gb"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Pool.gpuFraction("NVIDIA L40S", "big")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseAPoolWhoseGpuModelDoesNotOfferItsMigProfileWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() ->
                        new Pool("h200-mig-2g.20gb", "h200", "nvidia.com/mig-2g.20gb", 9, "NVIDIA H200", "2g.20gb"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "pool h200-mig-2g.20gb: NVIDIA H200 offers no MIG profile 2g.20gb (it offers 1g.18gb,");
        assertThatThrownBy(() -> new Pool("l40-mig-big", "l40-mig", "nvidia.com/mig-big", 7, "NVIDIA L40S", "big"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pool l40-mig-big")
                .hasMessageContaining("<N>g");
    }

    @Test
    void shouldRefuseAStaticPoolOfAMediaExtendedOrComputeInstanceProfileWhenTheCatalogIsLoaded() {
        String json = """
                [{"id": "h200-mig-1g.18gb-me", "flavor": "f", "resource": "nvidia.com/mig-1g.18gb-me", "capacity": 2,
                  "gpuModel": "NVIDIA H200", "migProfile": "1g.18gb+me"}]""";

        assertThatThrownBy(() -> PoolCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))))
                .rootCause()
                .hasMessage("pool h200-mig-1g.18gb-me: a static pool of 1g.18gb+me holds one instance a GPU (its media"
                        + " engines are not shared) and wastes the rest; use 1g.18gb");
        assertThatThrownBy(() -> new Pool("h100-ci", "f", "nvidia.com/mig-1c.3g.40gb", 2, "NVIDIA H100", "1c.3g.40gb"))
                .hasMessage("pool h100-ci: compute-instance profile 1c.3g.40gb is not supported in a pool; use its GPU"
                        + " instance profile 3g.40gb");
        // On a model the geometry catalog does not list as well.
        assertThatThrownBy(
                        () -> new Pool("x", "f", "nvidia.com/mig-1c.2g.10gb", 1, "NVIDIA A100-SXM4-40GB", "1c.2g.10gb"))
                .hasMessageContaining("compute-instance profile 1c.2g.10gb is not supported");
    }

    @Test
    void shouldRefuseAStaticPoolWhoseUnitsDoNotFitOnItsGpusWhenTheCatalogIsLoaded() {
        String json = """
                [{"id": "h200-mig-3g.71gb", "flavor": "f", "resource": "nvidia.com/mig-3g.71gb", "capacity": 7,
                  "gpuModel": "NVIDIA H200", "migProfile": "3g.71gb", "gpus": 3}]""";

        assertThatThrownBy(() -> PoolCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .rootCause()
                .hasMessage("pool h200-mig-3g.71gb: 7 × 3g.71gb do not fit on 3 GPUs (a GPU holds at most 2)");
        assertThatThrownBy(() -> new Pool("h200", "h200", "nvidia.com/gpu", 9, "NVIDIA H200", null, null, 8))
                .hasMessage("pool h200: 9 whole GPUs do not fit on 8");
        assertThat(new Pool("p", "f", "nvidia.com/mig-3g.71gb", 6, "NVIDIA H200", "3g.71gb", null, 3).gpus())
                .isEqualTo(3);
    }

    @Test
    void shouldCountTheShippedSixteenGpuFleetAsSixteenGpuEquivalents() {
        List<Pool> pools = PoolCatalog.load(Optional.empty()).pools();

        // 8 whole + 14 × 1/7 + 9 × 1/3 + 6 × 1/2 = 8 + 2 + 3 + 3
        assertThat(pools.stream()
                        .mapToDouble(p -> p.capacity() * p.gpuFraction())
                        .sum())
                .isCloseTo(16.0, within(1e-12));
        assertThat(pools.stream().mapToInt(Pool::gpus).sum()).isEqualTo(16);
        assertThat(pools)
                .allSatisfy(p ->
                        assertThat(p.capacity() * p.gpuFraction()).as(p.id()).isCloseTo(p.gpus(), within(1e-12)));
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
