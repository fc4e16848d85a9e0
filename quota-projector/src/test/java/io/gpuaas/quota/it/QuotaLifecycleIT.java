package io.gpuaas.quota.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Labels;
import io.gpuaas.kit.k8s.LeaseSettings;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.QuotaSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.NominalQuota;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bookings become Kueue quota for exactly their window, against the CRUD mock API server with the Kueue CRDs
 * and a real broker. One projector (holding the Lease) serves the class; each test uses its own tenant.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QuotaLifecycleIT {

    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");
    private static final FlavorResource MIG_1G = new FlavorResource("h200-mig-1g.18gb", "nvidia.com/mig-1g.18gb");

    private ProjectorFixture fixture;
    private QuotaProjector projector;

    @BeforeAll
    void start(KubernetesClient client, KafkaBroker broker) throws Exception {
        fixture = new ProjectorFixture(client, broker);
        projector = fixture.start(
                QuotaSettings.defaults(), LeaseSettings.elect("gpuaas-quota-projector"), new PrometheusRegistry());
        await().atMost(Duration.ofSeconds(20)).until(projector::leading);
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    @Test
    void shouldCreateQuotaAtStartAndDrainItAtEndWhenBookingWindowPasses() throws Exception {
        fixture.tenantNamespace("alpha", "alpha");
        Instant start = Instant.now().plusSeconds(3);
        Instant end = start.plusSeconds(4);
        fixture.book("b-alpha", "alpha", "h200", 3, start, end);

        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> clusterQueue("alpha") == null);
        await().atMost(Duration.ofSeconds(6))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> nominal(clusterQueue("alpha"), H200) == 3);
        Instant seen = Instant.now();
        // The target is 1 s (the benchmark measures it); 2 s leaves room for a cold JVM on a shared 2-core box.
        assertThat(Duration.between(start, seen)).isLessThan(Duration.ofSeconds(2));
        assertThat(nominal(cohort(), H200)).isEqualTo(5);
        assertThat(clusterQueue("alpha").getSpec().getCohortName()).isEqualTo("gpuaas-pool");
        assertThat(clusterQueue("alpha").getSpec().getStopPolicy()).isEqualTo("None");
        assertThat(clusterQueue("alpha").getSpec().getNamespaceSelector().getMatchLabels())
                .isEqualTo(Map.of("gpuaas.io/tenant", "alpha"));
        assertThat(fixture.get(Kind.LOCAL_QUEUE, "alpha", "gpuaas")).get().satisfies(lq -> assertThat(
                        ((LocalQueue) lq).getSpec().getClusterQueue())
                .isEqualTo("gpuaas-alpha"));
        assertThat(fixture.get(Kind.HARDWARE_PROFILE, "alpha", "gpuaas-h200")).isPresent();

        await().atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> nominal(cohort(), H200) == 8);
        assertThat(Duration.between(end, Instant.now())).isLessThan(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> clusterQueue("alpha") == null
                        && fixture.get(Kind.LOCAL_QUEUE, "alpha", "gpuaas").isEmpty()
                        && fixture.get(Kind.HARDWARE_PROFILE, "alpha", "gpuaas-h200")
                                .isEmpty());
    }

    @Test
    void shouldAddUpOverlappingBookingsWhenOneTenantHoldsTwo() throws Exception {
        fixture.tenantNamespace("bravo", "bravo");
        Instant now = Instant.now();
        fixture.book("b-bravo-1", "bravo", "h200-mig-1g.18gb", 2, now, now.plusSeconds(60));
        fixture.book("b-bravo-2", "bravo", "h200-mig-1g.18gb", 3, now.plusSeconds(2), now.plusSeconds(60));

        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("bravo"), MIG_1G) == 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("bravo"), MIG_1G) == 5);
        assertThat(nominal(cohort(), MIG_1G) + nominal(clusterQueue("bravo"), MIG_1G))
                .isEqualTo(14);
    }

    @Test
    void shouldRestoreQuotaWhenObjectsAreEditedOrDeletedByHand() throws Exception {
        fixture.tenantNamespace("charlie", "charlie");
        fixture.book(
                "b-charlie", "charlie", "h200", 1, Instant.now(), Instant.now().plusSeconds(120));
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("charlie"), H200) == 1);

        fixture.client.resources(ClusterQueue.class).withName("gpuaas-charlie").edit(cq -> {
            cq.getSpec().setStopPolicy("Hold");
            cq.getSpec().setNamespaceSelector(null);
            return cq;
        });
        fixture.client
                .resources(LocalQueue.class)
                .inNamespace("charlie")
                .withName("gpuaas")
                .delete();

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(clusterQueue("charlie").getSpec().getStopPolicy()).isEqualTo("None");
            assertThat(clusterQueue("charlie").getSpec().getNamespaceSelector()).isNotNull();
            assertThat(fixture.get(Kind.LOCAL_QUEUE, "charlie", "gpuaas")).isPresent();
        });
    }

    @Test
    void shouldHoldAndDrainQueueUntilItsWorkloadFinishesWhenBookingEnds() throws Exception {
        fixture.tenantNamespace("foxtrot", "foxtrot");
        Instant end = Instant.now().plusSeconds(4);
        fixture.book("b-foxtrot", "foxtrot", "h200", 2, Instant.now(), end);
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("foxtrot"), H200) == 2);
        TestWorkloads workloads = new TestWorkloads(fixture.client);
        workloads.create("foxtrot", "train", 2);
        workloads.admit("foxtrot", "train", "gpuaas-foxtrot", 2);

        await().atMost(Duration.ofSeconds(8)).until(() -> "HoldAndDrain"
                .equals(clusterQueue("foxtrot").getSpec().getStopPolicy()));
        assertThat(nominal(clusterQueue("foxtrot"), H200)).isZero();
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(2))
                .until(() -> clusterQueue("foxtrot") != null
                        && fixture.get(Kind.LOCAL_QUEUE, "foxtrot", "gpuaas").isPresent());

        workloads.finish("foxtrot", "train");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> clusterQueue("foxtrot") == null
                        && fixture.get(Kind.LOCAL_QUEUE, "foxtrot", "gpuaas").isEmpty());
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void shouldCreateNoDuplicateAndWriteNothingWhenRestartedInTheMiddleOfAWindow() throws Exception {
        fixture.tenantNamespace("delta", "delta");
        fixture.book("b-delta", "delta", "h200", 2, Instant.now(), Instant.now().plusSeconds(120));
        await().atMost(Duration.ofSeconds(5)).until(() -> nominal(clusterQueue("delta"), H200) == 2);
        ClusterQueue before = clusterQueue("delta");

        fixture.stop(projector);
        PrometheusRegistry registry = new PrometheusRegistry();
        QuotaProjector second =
                fixture.start(QuotaSettings.defaults(), LeaseSettings.elect("gpuaas-quota-projector"), registry);
        await().atMost(Duration.ofSeconds(20)).until(second::leading);
        Thread.sleep(1_500);

        assertThat(clusterQueue("delta").getMetadata().getUid())
                .isEqualTo(before.getMetadata().getUid());
        assertThat(clusterQueue("delta").getMetadata().getResourceVersion())
                .isEqualTo(before.getMetadata().getResourceVersion());
        long ours = fixture.client
                .resources(ClusterQueue.class)
                .withLabel(Labels.TENANT, "delta")
                .list()
                .getItems()
                .size();
        assertThat(ours).isEqualTo(1);
        assertThat(Metrics.sum(registry, "gpuaas_quota_writes", "outcome", "created"))
                .isZero();
        assertThat(Metrics.sum(registry, "gpuaas_quota_writes", "outcome", "updated"))
                .isZero();
        assertThat(Metrics.sum(registry, "gpuaas_quota_writes", "outcome", "unchanged"))
                .isPositive();
    }

    private ClusterQueue clusterQueue(String tenant) {
        return fixture.client
                .resources(ClusterQueue.class)
                .withName("gpuaas-" + tenant)
                .get();
    }

    private Cohort cohort() {
        return fixture.client.resources(Cohort.class).withName("gpuaas-pool").get();
    }

    static long nominal(HasMetadata object, FlavorResource cell) {
        return object == null
                ? -1
                : NominalQuota.of(object)
                        .getOrDefault(cell, BigDecimal.valueOf(-1))
                        .longValue();
    }
}
