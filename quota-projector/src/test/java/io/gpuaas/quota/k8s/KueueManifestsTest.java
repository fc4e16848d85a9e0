package io.gpuaas.quota.k8s;

import static io.gpuaas.quota.model.Bookings.at;
import static io.gpuaas.quota.model.Bookings.booking;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.quota.model.DesiredQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.quota.model.QuotaPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KueueManifestsTest {

    private static final PoolCatalog POOLS = PoolCatalog.load(Optional.empty());

    private static Map<ObjectRef, GenericKubernetesResource> render(boolean borrowing, boolean profiles) {
        DesiredQuota quota = QuotaPlan.at(at(1), List.of(booking("b1", "team-a", "h200", 3, at(0), at(60))), POOLS,
                Map.of("team-a", Set.of("team-a", "team-a-dev")));
        return new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", borrowing, profiles)).render(quota);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource object) {
        return (Map<String, Object>) object.getAdditionalProperties().get("spec");
    }

    @Test
    void shouldRenderTenantClusterQueueInCohortWithReclaimAndOneGroupPerResourceWhenTenantBooks() {
        GenericKubernetesResource cq = render(true, false).get(new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-team-a"));

        assertThat(cq.getApiVersion()).isEqualTo("kueue.x-k8s.io/v1beta2");
        assertThat(cq.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "gpuaas")
                .containsEntry("gpuaas.io/tenant", "team-a");
        assertThat(spec(cq)).containsEntry("cohortName", "gpuaas-pool").containsEntry("stopPolicy", "None")
                .containsEntry("namespaceSelector", Map.of("matchLabels", Map.of("gpuaas.io/tenant", "team-a")));
        assertThat((Map<String, Object>) (Map<?, ?>) spec(cq).get("preemption")).containsEntry("reclaimWithinCohort", "Any");
        List<Map<String, Object>> groups = (List<Map<String, Object>>) spec(cq).get("resourceGroups");
        assertThat(groups).hasSize(4).first().satisfies(g -> {
            assertThat(g).containsEntry("coveredResources", List.of("nvidia.com/gpu"));
            assertThat(g.get("flavors")).isEqualTo(List.of(Map.of("name", "h200",
                    "resources", List.of(Map.of("name", "nvidia.com/gpu", "nominalQuota", "3")))));
        });
        assertThat(NominalQuota.of(cq)).containsEntry(new FlavorResource("h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb"),
                java.math.BigDecimal.ZERO);
    }

    @Test
    void shouldRenderEqualObjectsWhenNothingChangedSoThePlannerQueuesOnlyRealChanges() {
        DesiredQuota before = QuotaPlan.at(at(1), List.of(booking("b1", "team-a", "h200", 3, at(0), at(60))), POOLS, Map.of());
        DesiredQuota more = QuotaPlan.at(at(1), List.of(booking("b1", "team-a", "h200", 4, at(0), at(60))), POOLS, Map.of());
        KueueManifests manifests = new KueueManifests(new ManifestSettings("gpuaas-pool", "gpuaas", true, true));
        ObjectRef cq = new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-team-a");

        assertThat(manifests.render(before)).isEqualTo(manifests.render(before));
        assertThat(manifests.render(more).get(cq)).isNotEqualTo(manifests.render(before).get(cq));
    }

    @Test
    void shouldForbidBorrowingWhenBorrowingIsDisabled() {
        GenericKubernetesResource cq = render(false, false).get(new ObjectRef(Kind.CLUSTER_QUEUE, null, "gpuaas-team-a"));

        assertThat(spec(cq).get("resourceGroups").toString()).contains("borrowingLimit=0");
    }

    @Test
    void shouldRenderLocalQueuesAndProfilesInEveryTenantNamespaceWhenProfilesAreEnabled() {
        Map<ObjectRef, GenericKubernetesResource> objects = render(true, true);

        assertThat(objects.keySet()).contains(new ObjectRef(Kind.LOCAL_QUEUE, "team-a", "gpuaas"),
                new ObjectRef(Kind.LOCAL_QUEUE, "team-a-dev", "gpuaas"),
                new ObjectRef(Kind.HARDWARE_PROFILE, "team-a-dev", "gpuaas-h200"),
                new ObjectRef(Kind.COHORT, null, "gpuaas-pool"));
        GenericKubernetesResource profile = objects.get(new ObjectRef(Kind.HARDWARE_PROFILE, "team-a", "gpuaas-h200"));
        assertThat(profile.getApiVersion()).isEqualTo("infrastructure.opendatahub.io/v1");
        assertThat(spec(profile)).containsEntry("scheduling", Map.of("type", "Queue", "kueue", Map.of("localQueueName", "gpuaas")));
        assertThat(render(true, false).keySet()).noneMatch(r -> r.kind() == Kind.HARDWARE_PROFILE);
    }

    @Test
    void shouldRejectCatalogWhenOneResourceIsCoveredByFlavorsWithDifferentResourceSets() {
        TreeMap<FlavorResource, Long> cells = new TreeMap<>(Map.of(
                new FlavorResource("a", "nvidia.com/gpu"), 1L,
                new FlavorResource("b", "nvidia.com/gpu"), 1L,
                new FlavorResource("b", "example.com/nic"), 1L));

        assertThatThrownBy(() -> ResourceGroups.render(cells, false)).hasMessageContaining("nvidia.com/gpu");
    }
}
