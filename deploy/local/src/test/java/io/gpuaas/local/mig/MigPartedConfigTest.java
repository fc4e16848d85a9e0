package io.gpuaas.local.mig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigPartedConfigTest {

    @Test
    void shouldReadEveryConfigWhenTheFileIsMigPartedV1() {
        MigPartedConfig file = MigPartedConfig.parse("""
                version: v1
                mig-configs:
                  all-disabled:
                    - devices: all
                      mig-enabled: false
                  gpuaas-h200-flex-1:
                    - devices: [0, 1]
                      mig-enabled: true
                      mig-devices:
                        "3g.71gb": 2
                    - devices: [2]
                      mig-enabled: true
                      mig-devices: {}
                """);

        assertThat(file.configs()).containsOnlyKeys("all-disabled", "gpuaas-h200-flex-1");
        assertThat(file.config("all-disabled").orElseThrow())
                .containsExactly(new MigPartedConfig.Entry(null, false, Map.of()));
        List<MigPartedConfig.Entry> flex = file.config("gpuaas-h200-flex-1").orElseThrow();
        assertThat(flex.getFirst().devices()).containsExactly(0, 1);
        assertThat(flex.getFirst().migDevices()).containsExactly(Map.entry("3g.71gb", 2));
        assertThat(flex.get(1).migEnabled()).isTrue();
        assertThat(flex.get(1).migDevices()).isEmpty();
        assertThat(flex.getFirst().selects(1)).isTrue();
        assertThat(flex.getFirst().selects(2)).isFalse();
    }

    @Test
    void shouldRefuseTheFileWhenItIsNotVersionOne() {
        assertThatThrownBy(() -> MigPartedConfig.parse("version: v2\nmig-configs: {}\n"))
                .hasMessageContaining("version must be v1");
    }

    @Test
    void shouldRefuseAnEntryWhenItNamesInstancesWithMigDisabled() {
        assertThatThrownBy(() -> MigPartedConfig.parse("""
                        version: v1
                        mig-configs:
                          odd:
                            - devices: all
                              mig-enabled: false
                              mig-devices: {"1g.18gb": 7}
                        """))
                .hasMessageContaining("odd: mig-devices on GPUs with mig-enabled false");
    }

    @Test
    void shouldRefuseAnEntryWhenItsDevicesAreNeitherAllNorIndexes() {
        assertThatThrownBy(() -> MigPartedConfig.parse("""
                        version: v1
                        mig-configs:
                          odd:
                            - devices: some
                              mig-enabled: false
                        """)).hasMessageContaining("devices must be all or a list");
    }

    @Test
    void shouldKnowAllDisabledWhenThereIsNoFile() {
        assertThat(MigPartedConfig.DEFAULT.config(MigPartedConfig.ALL_DISABLED)).isPresent();
        assertThat(MigPartedConfig.DEFAULT.configs()).hasSize(1);
    }
}
