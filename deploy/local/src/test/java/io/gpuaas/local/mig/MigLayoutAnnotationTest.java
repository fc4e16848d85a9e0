package io.gpuaas.local.mig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.GpuLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigLayoutAnnotationTest {

    /** As quota-projector's LayoutAnnotation writes it. */
    private static final String SAMPLE =
            "[{\"gpu\":0,\"migEnabled\":true,\"instances\":[{\"profile\":\"3g.71gb\",\"start\":4},"
                    + "{\"profile\":\"2g.35gb\",\"start\":0}]},{\"gpu\":1,\"migEnabled\":false,\"instances\":[]}]";

    @Test
    void shouldReadEachGpusInstancesOrWholeWhenTheAnnotationHasTheDocumentedShape() {
        Map<Integer, GpuLayout> layouts = MigLayoutAnnotation.parse(SAMPLE);

        assertThat(layouts)
                .containsExactly(
                        Map.entry(
                                0,
                                GpuLayout.mig(List.of(MigPlacement.of("2g.35gb", 0), MigPlacement.of("3g.71gb", 4)))),
                        Map.entry(1, GpuLayout.WHOLE));
    }

    @Test
    void shouldWriteWhatItReadsWhenRendered() {
        Map<Integer, GpuLayout> layouts = MigLayoutAnnotation.parse(SAMPLE);

        assertThat(MigLayoutAnnotation.parse(MigLayoutAnnotation.render(layouts)))
                .isEqualTo(layouts);
        assertThat(MigLayoutAnnotation.render(Map.of(2, GpuLayout.WHOLE)))
                .isEqualTo("[{\"gpu\":2,\"migEnabled\":false,\"instances\":[]}]");
    }

    @Test
    void shouldRefuseTheAnnotationWhenItIsNotTheListQuotaProjectorWrites() {
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("{\"0\":\"whole\"}")).hasMessageContaining("JSON list");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("[{\"migEnabled\":false}]"))
                .hasMessageContaining("names no GPU index");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("[{\"gpu\":0,\"migEnabled\":true}]"))
                .hasMessageContaining("lists no \"instances\"");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse(
                        "[{\"gpu\":0,\"migEnabled\":true,\"instances\":[{\"profile\":\"3g.71gb\"}]}]"))
                .hasMessageContaining("not {\"profile\"");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse(
                        "[{\"gpu\":0,\"migEnabled\":false},{\"gpu\":0,\"migEnabled\":false}]"))
                .hasMessageContaining("listed twice");
    }
}
