package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadDeleted;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a Workload counts for a booking's no-show rule, and where a booking looks. */
class WorkloadCellsTest {

    private static final Instant T = Instant.parse("2030-01-01T09:00:00Z");
    private static final String MIG = "nvidia.com/mig-2g.35gb";
    private static final String MIG_FLAVOR = "h200-mig-2g.35gb";

    private final WorkloadCells cells = new WorkloadCells(Fixtures.POOLS);

    private static WorkloadObserved pending(String namespace, Map<String, String> requests, Condition... conditions) {
        return new WorkloadObserved(
                namespace,
                "train",
                "uid",
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                new Condition("QuotaReserved", "False", "Pending", null, T),
                List.of(conditions),
                List.of(new PodSet("head", 1, Map.of("cpu", "2")), new PodSet("workers", 2, requests)),
                List.of(),
                null,
                T);
    }

    private static WorkloadObserved admitted(String namespace, String clusterQueue, boolean active) {
        return new WorkloadObserved(
                namespace,
                "train",
                "uid",
                "2",
                "gpuaas",
                clusterQueue,
                null,
                null,
                active,
                new Condition("Admitted", "True", "Admitted", null, T),
                List.of(new Condition("Admitted", "True", "Admitted", null, T)),
                List.of(new PodSet("workers", 2, Map.of(MIG, "1"))),
                List.of(new PodSetAdmission("workers", 2, Map.of(MIG, MIG_FLAVOR, "cpu", "default"), Map.of(MIG, "2"))),
                null,
                T);
    }

    private static Booking booking(String tenant, String namespace) {
        return new Booking(
                "bk",
                tenant,
                namespace,
                "h200-mig-2g.35gb",
                MIG_FLAVOR,
                MIG,
                2,
                T,
                T.plusSeconds(3600),
                null,
                BookingState.ACTIVE,
                "alice",
                T,
                T,
                2);
    }

    @Test
    void shouldCountAPendingWorkloadInItsNamespaceOnAnyFlavorOfThePoolResourcesItRequests() {
        assertThat(cells.of(pending("team-a", Map.of(MIG, "1", "memory", "8Gi"))))
                .containsExactly("ns/team-a|*|" + MIG);
        assertThat(WorkloadCells.ofBooking(booking("team-a", "team-a"))).contains("ns/team-a|*|" + MIG);
    }

    @Test
    void shouldCountAnAdmittedWorkloadInItsNamespaceAndItsClusterQueueOnTheFlavorItWasAdmittedWith() {
        assertThat(cells.of(admitted("team-a-dev", "gpuaas-team-a", true)))
                .containsExactlyInAnyOrder(
                        "ns/team-a-dev|" + MIG_FLAVOR + "|" + MIG, "cq/gpuaas-team-a|" + MIG_FLAVOR + "|" + MIG);
        assertThat(WorkloadCells.ofBooking(booking("team-a", "team-a")))
                .as("a booking of team-a in team-a sees team-a's queue, so its Workload in team-a-dev counts")
                .contains("cq/gpuaas-team-a|" + MIG_FLAVOR + "|" + MIG)
                .doesNotContain("ns/team-a-dev|" + MIG_FLAVOR + "|" + MIG);
    }

    @Test
    void shouldCountNothingWhenTheWorkloadIsFinishedDeactivatedDeletedOrAsksForNoPoolResource() {
        assertThat(cells.of(pending("team-a", Map.of(MIG, "1"), new Condition("Finished", "True", null, null, T))))
                .isEmpty();
        assertThat(cells.of(admitted("team-a", "gpuaas-team-a", false))).isEmpty();
        assertThat(cells.of(new WorkloadDeleted("team-a", "train", "uid", "gpuaas", "gpuaas-team-a", T)))
                .isEmpty();
        assertThat(cells.of(pending("team-a", Map.of("cpu", "4", "nvidia.com/mig-1g.10gb", "1"))))
                .isEmpty();
        assertThat(cells.of(pending("team-a", Map.of(MIG, "0")))).isEmpty();
    }

    @Test
    void shouldNotLetAnotherTenantsWorkloadCountForTheBooking() {
        List<String> looked = WorkloadCells.ofBooking(booking("team-a", "team-a"));

        assertThat(cells.of(admitted("team-b", "gpuaas-team-b", true))).doesNotContainAnyElementsOf(looked);
        assertThat(cells.of(pending("team-b", Map.of(MIG, "1")))).doesNotContainAnyElementsOf(looked);
    }
}
