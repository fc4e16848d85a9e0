package io.gpuaas.system.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.KafkaPrincipal;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolOverBudget;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import io.gpuaas.kube.kueue.v1beta2.LocalQueue;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.local.model.OwnerReader;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #30, item 3, across quota-projector in its own JVM and the local stack's Kueue stand-in: the pool catalog
 * lets over-budget tenants borrow on the whole-GPU H200 pool (8 GPUs). team-b's budget for this month says over budget
 * on {@code gpuaas.budgets} (written here as booking-service's budget stage writes it, with its Kafka identity), so
 * the projector gives it a borrow-only queue; its job there runs on borrowed GPUs only, at the priority
 * {@code gpuaas-borrowed}. team-a then holds a booking of all 8 GPUs and submits a job of 6: Kueue's reclaim (the
 * stand-in's) evicts team-b's job with Kueue's conditions, and team-a's runs. The job labels are the documented ones
 * ({@code kueue.x-k8s.io/queue-name: gpuaas-borrowed}, {@code kueue.x-k8s.io/priority-class: gpuaas-borrowed}).
 */
class OverBudgetBorrowingIT {

    private static final String GPU = "nvidia.com/gpu";

    private static E2eStack stack;
    private static KubernetesClient kube;
    private static KafkaProducer<String, TenantBudget> budgets;
    private static KafkaProducer<String, Booking> bookings;

    @BeforeAll
    static void start() throws Exception {
        // The flexible pool's whole GPUs are left out: with them idle, team-a's job would just take those (Kueue
        // tries the next flavor before preempting), and nothing would be reclaimed.
        stack = E2eStack.start(
                List.of("--only", "quota-projector"),
                pools -> new PoolCatalog(pools.pools().stream()
                        .filter(p -> !p.flexible())
                        .map(p -> p.id().equals("h200") ? p.withOverBudget(new PoolOverBudget(true)) : p)
                        .toList()));
        kube = stack.kube();
        Map<String, Object> asBookingService = stack.kafka().clientProperties(KafkaPrincipal.BOOKING_SERVICE);
        budgets = new KafkaProducer<>(
                asBookingService,
                new StringSerializer(),
                Topics.BUDGETS.valueSerde().serializer());
        bookings = new KafkaProducer<>(
                asBookingService,
                new StringSerializer(),
                Topics.BOOKINGS.valueSerde().serializer());
    }

    @AfterAll
    static void stop() {
        if (budgets != null) {
            budgets.close();
            bookings.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldRunOverBudgetWorkOnlyOnBorrowedGpusAndPreemptItWhenABookedTenantNeedsThem() throws Exception {
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        TenantBudget over = new TenantBudget(
                "team-b",
                month,
                TenantBudget.Unit.GPU_HOURS,
                new BigDecimal("100"),
                null,
                new BigDecimal("100"),
                BigDecimal.ZERO,
                true,
                Instant.now());
        budgets.send(new ProducerRecord<>(
                        Topics.BUDGETS.name(Topics.DEFAULT_PREFIX), TenantBudget.key("team-b", month), over))
                .get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> kube.resources(LocalQueue.class)
                                .inNamespace("team-b")
                                .withName("gpuaas-borrowed")
                                .get()
                        != null);
        create(borrowed("sweep", 4));
        await().atMost(Duration.ofSeconds(30)).until(() -> admitted("team-b"));
        Workload sweep = onlyWorkload("team-b");
        assertThat(sweep.getStatus().getAdmission().getClusterQueue()).isEqualTo("gpuaas-team-b.borrowed");
        assertThat(sweep.getSpec().getPriority()).isEqualTo(-100);
        var quota = kube.resources(ClusterQueue.class)
                .withName("gpuaas-team-b.borrowed")
                .get()
                .getSpec()
                .getResourceGroups()
                .getFirst()
                .getFlavors()
                .getFirst()
                .getResources()
                .getFirst()
                .getNominalQuota();
        assertThat(quota.getIntVal() != null ? quota.getIntVal().toString() : quota.getStrVal())
                .as("admitted with no quota of its own: all 4 GPUs borrowed")
                .isEqualTo("0");

        Instant now = Instant.now();
        Booking booked = new Booking(
                "over-budget-e2e-a",
                "team-a",
                "team-a",
                "h200",
                "h200",
                GPU,
                8,
                now.minusSeconds(60),
                now.plusSeconds(3600),
                null,
                BookingState.ACTIVE,
                "alice",
                now.minusSeconds(120),
                now,
                2);
        bookings.send(new ProducerRecord<>(Topics.BOOKINGS.name(Topics.DEFAULT_PREFIX), booked.id(), booked))
                .get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> kube.resources(LocalQueue.class)
                                .inNamespace("team-a")
                                .withName("gpuaas")
                                .get()
                        != null);
        create(DemoWorkloads.rayCluster("team-a", "train", GPU, 6));

        await().atMost(Duration.ofSeconds(30)).until(() -> admitted("team-a"));
        Workload train = onlyWorkload("team-a");
        assertThat(train.getStatus().getAdmission().getClusterQueue()).isEqualTo("gpuaas-team-a");
        sweep = onlyWorkload("team-b");
        String message = "Preempted to accommodate a workload (UID: "
                + train.getMetadata().getUid() + ") due to reclamation within the cohort";
        assertThat(condition(sweep, "Evicted")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("Preempted");
            assertThat(c.getMessage()).isEqualTo(message);
        });
        assertThat(condition(sweep, "Preempted")).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("InCohortReclamation");
        });
        assertThat(condition(sweep, "QuotaReserved").getStatus()).isEqualTo("False");
        assertThat(sweep.getStatus().getAdmission()).isNull();
    }

    private static RayCluster borrowed(String name, int gpus) {
        RayCluster cluster = DemoWorkloads.rayCluster("team-b", name, GPU, gpus);
        Map<String, String> labels = new LinkedHashMap<>(cluster.getMetadata().getLabels());
        labels.put(OwnerReader.QUEUE_LABEL, "gpuaas-borrowed");
        labels.put(OwnerReader.PRIORITY_CLASS_LABEL, "gpuaas-borrowed");
        cluster.getMetadata().setLabels(labels);
        return cluster;
    }

    private static void create(RayCluster cluster) {
        kube.resources(RayCluster.class)
                .inNamespace(cluster.getMetadata().getNamespace())
                .resource(cluster)
                .create();
    }

    private static boolean admitted(String namespace) {
        List<Workload> workloads =
                kube.resources(Workload.class).inNamespace(namespace).list().getItems();
        return workloads.size() == 1
                && workloads.getFirst().getStatus() != null
                && Optional.ofNullable(workloads.getFirst().getStatus().getConditions()).orElse(List.of()).stream()
                        .anyMatch(c -> "Admitted".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Workload onlyWorkload(String namespace) {
        List<Workload> workloads =
                kube.resources(Workload.class).inNamespace(namespace).list().getItems();
        assertThat(workloads).hasSize(1);
        return workloads.getFirst();
    }

    private static Condition condition(Workload workload, String type) {
        return workload.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " condition"));
    }
}
