package io.gpuaas.events.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpuGeometryCatalogTest {

    private final GpuGeometryCatalog catalog = GpuGeometryCatalog.shipped();

    @Test
    void shouldHoldTheH200ProfilesExactlyAsNvidiaSmiPrintedThemWhenReadOnARealH200() throws IOException {
        List<GpuInstanceProfile> readout = NvidiaSmiProfiles.parse(resource("/geometry/h200-mig-geometry.txt"));

        assertThat(readout).hasSize(7);
        assertThat(catalog.forModel("NVIDIA H200").orElseThrow().profiles()).isEqualTo(readout);
        assertThat(readout.get(2)).isEqualTo(new GpuInstanceProfile("1g.35gb", 15, 1, 2, List.of(0, 2, 4, 6), 4));
        assertThat(readout.get(5)).isEqualTo(new GpuInstanceProfile("4g.71gb", 5, 4, 4, List.of(0), 1));
    }

    @Test
    void shouldGiveTheH100AndA100EightyGigabyteTheGuidesIdsAndPlacementsWhenLookedUpByTheirFullNames() {
        GpuGeometry h100 = catalog.forModel("NVIDIA H100 80GB HBM3").orElseThrow();
        GpuGeometry a100 = catalog.forModel("nvidia a100-sxm4-80gb ").orElseThrow();

        for (GpuGeometry gpu : List.of(h100, a100)) {
            assertThat(gpu.profiles())
                    .extracting(GpuInstanceProfile::name, GpuInstanceProfile::id)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("1g.10gb", 19),
                            org.assertj.core.groups.Tuple.tuple("1g.10gb+me", 20),
                            org.assertj.core.groups.Tuple.tuple("1g.20gb", 15),
                            org.assertj.core.groups.Tuple.tuple("2g.20gb", 14),
                            org.assertj.core.groups.Tuple.tuple("3g.40gb", 9),
                            org.assertj.core.groups.Tuple.tuple("4g.40gb", 5),
                            org.assertj.core.groups.Tuple.tuple("7g.80gb", 0));
            assertThat(gpu.profile("1g.20gb").orElseThrow().starts()).containsExactly(0, 2, 4, 6);
            assertThat(gpu.profile("2g.20gb").orElseThrow().starts()).containsExactly(0, 2, 4);
            assertThat(gpu.profile("3g.40gb").orElseThrow().starts()).containsExactly(0, 4);
            assertThat(gpu.profile("7g.80gb").orElseThrow().memorySlices()).isEqualTo(8);
        }
        assertThat(catalog.forModel("NVIDIA A30")
                        .orElseThrow()
                        .profile("2g.12gb")
                        .orElseThrow()
                        .starts())
                .containsExactly(0, 2);
    }

    @Test
    void shouldFindNoGeometryWhenAPoolShortensTheModelNameOrNamesAModelNotListed() {
        assertThat(catalog.forModel("NVIDIA H100")).isEmpty();
        assertThat(catalog.forModel("NVIDIA A100-SXM4-40GB")).isEmpty();
        assertThat(catalog.forModel("Tesla T4")).isEmpty();
        assertThat(catalog.forModel(null)).isEmpty();
    }

    @Test
    void shouldReadAComputeInstanceProfileAsTheGpuInstanceItRunsIn() {
        GpuGeometry h100 = catalog.forModel("NVIDIA H100 PCIe").orElseThrow();

        assertThat(h100.profile("1c.3g.40gb")).map(GpuInstanceProfile::name).contains("3g.40gb");
        assertThat(h100.profile("3g.71gb")).isEmpty();
    }

    @Test
    void shouldRefuseAReadoutWhenAProfileHasNoPlacements() {
        String lgip = "|   0  MIG 2g.35gb         14     3/3        32.50      No     32     2     0   |\n";

        assertThatThrownBy(() -> NvidiaSmiProfiles.parse(lgip))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2g.35gb");
        assertThatThrownBy(() -> NvidiaSmiProfiles.parse("GPU  0 Profile ID  9 Placements: {0,4}:4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[9]");
    }

    @Test
    void shouldRefuseACatalogListingOneModelTwice() {
        GpuGeometry a = new GpuGeometry(
                List.of("NVIDIA X"), 7, 8, List.of(new GpuInstanceProfile("7g.1gb", 0, 7, 8, List.of(0), 1)), "test");

        assertThatThrownBy(() -> new GpuGeometryCatalog(List.of(a, a)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NVIDIA X");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = GpuGeometryCatalogTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
