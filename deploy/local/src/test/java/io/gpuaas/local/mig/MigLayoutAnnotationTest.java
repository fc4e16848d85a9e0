package io.gpuaas.local.mig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.GpuLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigLayoutAnnotationTest {

    private static final String SAMPLE =
            "{\"0\":[{\"profile\":\"3g.71gb\",\"start\":4},{\"profile\":\"2g.35gb\",\"start\":0}],\"1\":\"whole\"}";

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
        assertThat(MigLayoutAnnotation.render(Map.of(2, GpuLayout.WHOLE))).isEqualTo("{\"2\":\"whole\"}");
    }

    @Test
    void shouldRefuseTheAnnotationWhenAGpuIsNeitherWholeNorAList() {
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("{\"0\":\"3g.71gb\"}"))
                .hasMessageContaining("GPU 0 must be \"whole\"");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("{\"gpu0\":\"whole\"}"))
                .hasMessageContaining("not a GPU index");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("{\"0\":[{\"profile\":\"3g.71gb\"}]}"))
                .hasMessageContaining("not {\"profile\"");
        assertThatThrownBy(() -> MigLayoutAnnotation.parse("[1]")).hasMessageContaining("JSON object");
    }
}
