package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PoolKeepTest {

    @Test
    void shouldReadThePoolsKeepBoundsAndDefaultToTodaysWhenThePoolGivesNone() throws IOException {
        PoolCatalog catalog = PoolCatalog.read(new ByteArrayInputStream("""
                [{"id": "h200", "flavor": "h200", "resource": "nvidia.com/gpu", "capacity": 8,
                  "gpuModel": "NVIDIA H200", "keep": {"maxHoursPerAnswer": 8, "maxHoursPerDay": 12}},
                 {"id": "a100", "flavor": "a100", "resource": "nvidia.com/gpu", "capacity": 8, "gpuModel": "NVIDIA A100"}]""".getBytes(StandardCharsets.UTF_8)));

        assertThat(catalog.find("h200").orElseThrow().keepPolicy()).isEqualTo(new PoolKeep(8, 12));
        assertThat(catalog.find("a100").orElseThrow().keep()).isNull();
        assertThat(catalog.find("a100").orElseThrow().keepPolicy())
                .isEqualTo(PoolKeep.DEFAULT)
                .isEqualTo(new PoolKeep(24, 24));
    }

    @Test
    void shouldRefuseBoundsUnderAnHourWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() -> new PoolKeep(0, 24)).hasMessageContaining("maxHoursPerAnswer");
        assertThatThrownBy(() -> new PoolKeep(8, 0)).hasMessageContaining("maxHoursPerDay");
    }
}
