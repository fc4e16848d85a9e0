package io.gpuaas.local.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FleetLayoutTest {

    @Test
    void shouldMatchTheShippedDefaultPoolsWhenTheFleetHasSixteenGpus() {
        PoolCatalog pools = FleetLayout.of(16).pools();

        assertThat(pools.pools()).isEqualTo(PoolCatalog.load(Optional.empty()).pools());
        assertThat(pools.pools())
                .extracting(Pool::id, Pool::capacity)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("h200", 8),
                        org.assertj.core.groups.Tuple.tuple("h200-mig-1g.18gb", 14),
                        org.assertj.core.groups.Tuple.tuple("h200-mig-2g.35gb", 9),
                        org.assertj.core.groups.Tuple.tuple("h200-mig-3g.71gb", 6));
        assertThat(pools.pools()).extracting(Pool::gpus).containsExactly(8, 2, 3, 3);
    }

    @Test
    void shouldWeighEveryFleetAsManyGpuEquivalentsAsItHasGpusWhenTheLedgerSumsItsPools() {
        for (int gpus = 2; gpus <= 40; gpus++) {
            double equivalents = FleetLayout.of(gpus).pools().pools().stream()
                    .mapToDouble(p -> p.capacity() * p.gpuFraction())
                    .sum();
            assertThat(equivalents).as("%d GPUs", gpus).isCloseTo(gpus, org.assertj.core.api.Assertions.within(1e-9));
        }
    }

    @Test
    void shouldScaleEveryPoolFourfoldWhenTheFleetHasSixtyFourGpus() {
        FleetLayout layout = FleetLayout.of(64);

        assertThat(layout.pools().pools()).extracting(Pool::capacity).containsExactly(32, 56, 36, 24);
        assertThat(layout.nodes()).hasSize(8).allSatisfy(n -> assertThat(n.gpus())
                .isEqualTo(8));
        assertThat(layout.nodes().subList(0, 4))
                .allSatisfy(n -> assertThat(n.migConfig()).isEqualTo(FleetLayout.MIG_DISABLED));
    }

    @Test
    void shouldAdvertiseOnEachNodeExactlyTheDevicesItServesWhenPartitioned() {
        GpuNode migNode = FleetLayout.of(16).nodes().get(1);

        assertThat(migNode.capacity())
                .containsEntry("nvidia.com/mig-1g.18gb", 14)
                .containsEntry("nvidia.com/mig-2g.35gb", 9)
                .containsEntry("nvidia.com/mig-3g.71gb", 6)
                .doesNotContainKey("nvidia.com/gpu");
        assertThat(migNode.devices()).extracting(GpuDevice::key).doesNotHaveDuplicates();
    }

    @Test
    void shouldKeepOneWholeAndOnePartitionedGpuWhenTheFleetIsTheSmallestAllowed() {
        FleetLayout layout = FleetLayout.of(2);

        assertThat(layout.nodes()).hasSize(2);
        assertThat(layout.pools().find("h200")).get().extracting(Pool::capacity).isEqualTo(1);
        assertThat(layout.pools().find("h200-mig-1g.18gb"))
                .get()
                .extracting(Pool::capacity)
                .isEqualTo(7);
    }

    @Test
    void shouldRefuseAFleetOfOneGpuWhenAskedForIt() {
        assertThatThrownBy(() -> FleetLayout.of(1)).hasMessageContaining("--gpus must be at least 2");
    }
}
