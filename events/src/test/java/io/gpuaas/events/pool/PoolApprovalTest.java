package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PoolApprovalTest {

    private static final Instant T0 = Instant.parse("2026-11-22T09:00:00Z");

    @Test
    void shouldReadTheApprovalPolicyWhenThePoolCatalogGivesOne() throws IOException {
        PoolCatalog catalog = read("""
                [{"id": "h200", "flavor": "h200", "resource": "nvidia.com/gpu", "capacity": 8,
                  "gpuModel": "NVIDIA H200", "approval": {"overUnitHours": 672, "hold": "PT24H"}},
                 {"id": "a100", "flavor": "a100", "resource": "nvidia.com/gpu", "capacity": 8, "gpuModel": "NVIDIA A100"}]""");

        assertThat(catalog.find("h200").orElseThrow().approval())
                .isEqualTo(new PoolApproval(672, Duration.ofHours(24)));
        assertThat(catalog.find("a100").orElseThrow().approval()).isNull();
    }

    @Test
    void shouldCountUnitsOfAStaticPoolAndGpuSharesOfAFlexibleOneWhenSizingABooking() throws IOException {
        Pool mig = new Pool("h200-mig-3g.71gb", "f", "nvidia.com/mig-3g.71gb", 6, "NVIDIA H200", "3g.71gb");
        Pool flexible = read("""
                        [{"id": "h200-flex", "flavor": "h200-flex", "resource": "nvidia.com/gpu", "capacity": 2,
                          "gpuModel": "NVIDIA H200", "kind": "flexible", "nodes": [{"name": "n1", "gpus": 2}]}]""").find("h200-flex").orElseThrow();
        Instant end = T0.plus(Duration.ofHours(10));

        assertThat(PoolApproval.unitHours(mig, "3g.71gb", 4, T0, end)).isEqualTo(40.0);
        assertThat(PoolApproval.unitHours(flexible, "3g.71gb", 4, T0, end)).isEqualTo(20.0);
        assertThat(PoolApproval.unitHours(flexible, null, 4, T0, end)).isEqualTo(40.0);
    }

    @Test
    void shouldHoldForThePoliciesDurationButNeverPastTheStartWhenABookingAwaitsApproval() {
        PoolApproval policy = new PoolApproval(100, Duration.ofHours(24));

        assertThat(policy.holdUntil(T0, T0.plus(Duration.ofDays(3)))).isEqualTo(T0.plus(Duration.ofHours(24)));
        assertThat(policy.holdUntil(T0, T0.plus(Duration.ofHours(2)))).isEqualTo(T0.plus(Duration.ofHours(2)));
        assertThat(policy.needsApproval(100)).isFalse();
        assertThat(policy.needsApproval(100.5)).isTrue();
    }

    @Test
    void shouldRefuseAPolicyWithoutAPositiveThresholdOrHoldWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() -> new PoolApproval(0, Duration.ofHours(1))).hasMessageContaining("overUnitHours");
        assertThatThrownBy(() -> new PoolApproval(10, Duration.ZERO)).hasMessageContaining("hold");
        assertThatThrownBy(() -> new PoolApproval(10, null)).hasMessageContaining("hold");
    }

    private static PoolCatalog read(String json) throws IOException {
        return PoolCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }
}
