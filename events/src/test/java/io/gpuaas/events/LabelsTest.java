package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabelsTest {

    @Test
    void shouldKeepTheKeysClustersAlreadyCarryWhenTheConstantsAreRenamed() {
        // Tenants' namespaces, flexible nodes, RBAC rules and the deploy manifests spell these keys: a new value
        // would orphan every labelled object, so the wire values are pinned here, not only the names.
        assertThat(Labels.TENANT).isEqualTo("gpuaas.io/tenant");
        assertThat(Labels.POOL).isEqualTo("gpuaas.io/pool");
        assertThat(Labels.MIG_LAYOUT).isEqualTo("gpuaas.io/mig-layout");
    }
}
