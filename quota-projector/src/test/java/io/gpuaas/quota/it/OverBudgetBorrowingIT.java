package io.gpuaas.quota.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.Topics;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolOverBudget;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.Cohort;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.WorkloadPriorityClass;
import io.gpuaas.kube.kueue.v1beta2.clusterqueuespec.resourcegroups.Flavors;
import io.gpuaas.quota.QuotaProjector;
import io.gpuaas.quota.config.MigLayoutSettings;
import io.gpuaas.quota.k8s.Kind;
import io.gpuaas.quota.k8s.NominalQuota;
import io.gpuaas.quota.model.BorrowPlan;
import io.gpuaas.quota.model.FlavorResource;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Over-budget tenants get a borrow-only queue on the pools that allow it, from {@code gpuaas.budgets} on a real
 * broker, against the CRUD mock API server. The catalog is the shipped one with {@code overBudget: {borrow: true}}
 * on the whole-GPU H200 pool only. One projector serves the class; each test uses its own tenants.
 */
@ExtendWith({KubernetesApiExtension.class, KafkaBrokerExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OverBudgetBorrowingIT {

    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");

    private ProjectorFixture fixture;
    private KafkaProducer<String, TenantBudget> budgets;

    @BeforeAll
    void start(KubernetesClient client, KafkaBroker broker) throws Exception {
        fixture = new ProjectorFixture(client, broker);
        budgets = new KafkaProducer<>(
                broker.clientProperties(),
                new StringSerializer(),
                Topics.BUDGETS.valueSerde().serializer());
        PoolCatalog shipped = PoolCatalog.load(Optional.empty());
        PoolCatalog catalog = new PoolCatalog(shipped.pools().stream()
                .map(p -> p.id().equals("h200") ? p.withOverBudget(new PoolOverBudget(true)) : p)
                .toList());
        QuotaProjector projector =
                fixture.start(client, catalog, MigLayoutSettings.defaults(), new PrometheusRegistry());
        await().atMost(Duration.ofSeconds(20)).until(projector::leading);
    }

    @AfterAll
    void stop() {
        budgets.close();
        fixture.close();
    }

    @Test
    void shouldGiveAnOverBudgetTenantABorrowOnlyQueueAndTakeItAwayWhenItIsBackUnderBudget() throws Exception {
        fixture.tenantNamespace("delta", "delta");
        fixture.tenantNamespace("delta-ml", "delta");
        publish("delta", month(), true);

        await().atMost(Duration.ofSeconds(10)).until(() -> borrowQueue("delta") != null);
        ClusterQueue queue = borrowQueue("delta");
        assertThat(queue.getSpec().getCohortName()).isEqualTo("gpuaas-pool");
        assertThat(queue.getSpec().getStopPolicy()).isEqualTo("None");
        assertThat(queue.getSpec().getPreemption().getReclaimWithinCohort()).isEqualTo("Any");
        List<Flavors> gpuFlavors = queue.getSpec().getResourceGroups().stream()
                .filter(g -> g.getCoveredResources().contains("nvidia.com/gpu")
                        || g.getCoveredResources().stream().anyMatch(r -> r.startsWith("nvidia.com/mig-")))
                .flatMap(g -> g.getFlavors().stream())
                .toList();
        assertThat(gpuFlavors)
                .as("only the pool whose policy allows it, with no quota of its own")
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.getName()).isEqualTo("h200");
                    assertThat(f.getResources()).singleElement().satisfies(r -> {
                        assertThat(r.getNominalQuota()).isEqualTo(new IntOrString("0"));
                        assertThat(r.getBorrowingLimit()).isNull();
                    });
                });
        assertThat(List.of("delta", "delta-ml"))
                .allSatisfy(ns -> assertThat(fixture.get(Kind.LOCAL_QUEUE, ns, "gpuaas-borrowed"))
                        .get()
                        .satisfies(lq -> assertThat(((LocalQueue) lq).getSpec().getClusterQueue())
                                .isEqualTo("gpuaas-delta.borrowed")));
        assertThat(fixture.client
                        .resources(WorkloadPriorityClass.class)
                        .withName("gpuaas-borrowed")
                        .get())
                .satisfies(wpc -> assertThat(wpc.getValue()).isEqualTo(-100));
        assertThat(nominal(cohort(), H200))
                .as("the cohort still holds the whole pool: the borrow queue reserves nothing")
                .isEqualTo(8);
        assertThat(fixture.client
                        .resources(ClusterQueue.class)
                        .withName("gpuaas-delta")
                        .get())
                .as("no booking, no guaranteed quota")
                .isNull();

        publish("delta", month(), false);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> borrowQueue("delta") == null
                        && fixture.get(Kind.LOCAL_QUEUE, "delta", "gpuaas-borrowed")
                                .isEmpty()
                        && fixture.get(Kind.LOCAL_QUEUE, "delta-ml", "gpuaas-borrowed")
                                .isEmpty());
    }

    @Test
    void shouldGiveNoBorrowOnlyQueueToATenantWithinBudgetOrOverBudgetOnlyInAnotherMonth() throws Exception {
        fixture.tenantNamespace("echo", "echo");
        fixture.tenantNamespace("foxtrot", "foxtrot");
        fixture.tenantNamespace("golf", "golf");
        publish("echo", month(), false);
        publish("foxtrot", BorrowPlan.month(Instant.now()).minusMonths(1).toString(), true);
        publish("golf", month(), true);

        // golf is planned after the others were read (one partition order per key, so wait for it, then look).
        await().atMost(Duration.ofSeconds(10)).until(() -> borrowQueue("golf") != null);
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3))
                .until(() -> borrowQueue("echo") == null && borrowQueue("foxtrot") == null);
        assertThat(fixture.get(Kind.LOCAL_QUEUE, "echo", "gpuaas-borrowed")).isEmpty();
        assertThat(fixture.get(Kind.LOCAL_QUEUE, "foxtrot", "gpuaas-borrowed")).isEmpty();
    }

    private void publish(String tenant, String month, boolean overBudget) throws Exception {
        TenantBudget budget = new TenantBudget(
                tenant,
                month,
                TenantBudget.Unit.GPU_HOURS,
                new BigDecimal("100"),
                null,
                new BigDecimal(overBudget ? "100" : "10"),
                BigDecimal.ZERO,
                overBudget,
                Instant.now());
        budgets.send(new ProducerRecord<>(fixture.kafka.topic(Topics.BUDGETS), TenantBudget.key(tenant, month), budget))
                .get(10, TimeUnit.SECONDS);
    }

    private static String month() {
        return BorrowPlan.month(Instant.now()).toString();
    }

    private ClusterQueue borrowQueue(String tenant) {
        return fixture.client
                .resources(ClusterQueue.class)
                .withName(BorrowPlan.clusterQueueName(tenant))
                .get();
    }

    private Cohort cohort() {
        return fixture.client.resources(Cohort.class).withName("gpuaas-pool").get();
    }

    private static long nominal(Cohort cohort, FlavorResource cell) {
        return NominalQuota.of(cohort)
                .getOrDefault(cell, BigDecimal.valueOf(-1))
                .longValueExact();
    }
}
