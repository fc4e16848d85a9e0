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

    @Test
    void shouldAddTheFlexiblePoolBesideTheStaticOnesWhenFlexibleGpusAreAsked() {
        FleetLayout layout = FleetLayout.of(16, 8);

        assertThat(layout.pools().pools().subList(0, 4))
                .isEqualTo(FleetLayout.of(16).pools().pools());
        Pool flex = layout.pools().find(FleetLayout.FLEX_POOL).orElseThrow();
        assertThat(flex.flexible()).isTrue();
        assertThat(flex.flavor()).isEqualTo("h200-flex");
        assertThat(flex.capacity()).isEqualTo(8);
        assertThat(flex.nodes()).containsExactly(new io.gpuaas.events.pool.PoolNode("gpu-node-3", 8));
        GpuNode node = layout.node("gpu-node-3").orElseThrow();
        assertThat(node.flexiblePool()).isEqualTo(FleetLayout.FLEX_POOL);
        assertThat(node.migConfig()).isEqualTo(FleetLayout.MIG_DISABLED);
        assertThat(node.capacity()).containsExactly(java.util.Map.entry("nvidia.com/gpu", 8));
    }

    @Test
    void shouldSpreadFlexibleGpusEightToANodeWhenThereAreMore() {
        FleetLayout layout = FleetLayout.of(16, 12);

        assertThat(layout.flexibleNodes())
                .extracting(GpuNode::name, GpuNode::gpus)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("gpu-node-3", 8),
                        org.assertj.core.groups.Tuple.tuple("gpu-node-4", 4));
        assertThat(FleetLayout.of(16, 0).pools().find(FleetLayout.FLEX_POOL)).isEmpty();
    }

    @Test
    void shouldReadBackTheCatalogWithTheFlexiblePoolWhenItIsWrittenAsPoolsJson() throws Exception {
        PoolCatalog pools = FleetLayout.of(16, 8).pools();

        PoolCatalog read = PoolCatalog.read(
                new java.io.ByteArrayInputStream(pools.toJson().getBytes(java.nio.charset.StandardCharsets.UTF_8)));

        assertThat(read.pools()).isEqualTo(pools.pools());
        assertThat(read.flexibleFor("gpu-node-3")).get().extracting(Pool::id).isEqualTo(FleetLayout.FLEX_POOL);
    }

    @Test
    void shouldServeAsManyInstancesAsTheGeometryHoldsWhenAFlexibleGpuRunsOneBookableProfileAlone() {
        Pool flex = FleetLayout.of(16, 8).pools().find(FleetLayout.FLEX_POOL).orElseThrow();

        for (String profile : flex.bookableProfiles()) {
            var alone = FleetLayout.GEOMETRY.profile(profile).orElseThrow();
            java.util.List<io.gpuaas.events.geometry.MigPlacement> instances = new java.util.ArrayList<>();
            for (int start : alone.starts()) {
                instances.add(io.gpuaas.events.geometry.MigPlacement.of(profile, start));
                if (!FleetLayout.GEOMETRY.isValid(instances)) {
                    instances.removeLast();
                }
            }
            GpuNode node = FleetLayout.flexibleNode(
                    "gpu-node-3", FleetLayout.FLEX_POOL, "x", java.util.List.of(GpuLayout.mig(instances)));

            assertThat(node.capacity())
                    .as(profile)
                    .containsExactly(java.util.Map.entry(
                            flex.resourceFor(profile), FleetLayout.GEOMETRY.mostInstances(profile)));
            assertThat(node.devices()).extracting(GpuDevice::gpuInstanceId).doesNotHaveDuplicates();
        }
    }

    @Test
    void shouldNumberFlexibleInstancesAsTheStaticNodeDoesWhenTheyStandAtTheSamePlaces() {
        GpuNode staticNode = FleetLayout.of(16).nodes().get(1);
        for (MigProfile profile : MigProfile.ALL) {
            var geometry = FleetLayout.GEOMETRY.profile(profile.name()).orElseThrow();
            java.util.List<Integer> flexible = java.util.stream.IntStream.range(0, profile.perGpu())
                    .map(i -> FleetLayout.gpuInstanceId(
                            geometry, geometry.starts().get(i)))
                    .boxed()
                    .toList();
            java.util.List<Integer> served = staticNode.devices().stream()
                    .filter(d -> profile.name().equals(d.migProfile()))
                    .map(GpuDevice::gpuInstanceId)
                    .distinct()
                    .sorted()
                    .toList();

            assertThat(flexible).as(profile.name()).isEqualTo(served);
        }
    }
}
