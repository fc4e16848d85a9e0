package io.gpuaas.quota.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.quota.QueueState;
import io.gpuaas.events.workload.WorkloadEvent.Condition;
import io.gpuaas.events.workload.WorkloadEvent.PodSet;
import io.gpuaas.events.workload.WorkloadEvent.PodSetAdmission;
import io.gpuaas.events.workload.WorkloadEvent.WorkloadObserved;
import io.gpuaas.quota.model.QueueStateProjection.QueueId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueStateProjectionTest {

    private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");
    private static final QueueId CQ =
            new QueueId(QueueState.Kind.CLUSTER_QUEUE, "gpuaas-team-a", null, null, "gpuaas-pool", "team-a");
    private static final FlavorResource H200 = new FlavorResource("h200", "nvidia.com/gpu");

    private static WorkloadObserved workload(String name, List<Condition> conditions, int pods, int admittedGpus) {
        List<PodSetAdmission> admission = admittedGpus == 0
                ? List.of()
                : List.of(new PodSetAdmission(
                        "main",
                        pods,
                        Map.of("nvidia.com/gpu", "h200"),
                        Map.of("nvidia.com/gpu", Integer.toString(admittedGpus))));
        return new WorkloadObserved(
                "team-a",
                name,
                "u-" + name,
                "1",
                "gpuaas",
                null,
                null,
                null,
                true,
                null,
                conditions,
                List.of(new PodSet("main", pods, Map.of("nvidia.com/gpu", "1", "memory", "1Gi"))),
                admission,
                null,
                T);
    }

    private static Condition cond(String type, String status, String reason) {
        return new Condition(type, status, reason, "", T);
    }

    @Test
    void shouldCountAdmittedUsageBorrowingAndPendingDemandWhenQueueIsBusy() {
        List<WorkloadObserved> workloads = List.of(
                workload(
                        "a",
                        List.of(cond("QuotaReserved", "True", "QuotaReserved"), cond("Admitted", "True", "Admitted")),
                        4,
                        4),
                workload("b", List.of(cond("QuotaReserved", "False", "Pending")), 2, 0),
                workload("c", List.of(cond("QuotaReserved", "False", "Inadmissible")), 1, 0),
                workload(
                        "d",
                        List.of(cond("Admitted", "True", "Admitted"), cond("Finished", "True", "Succeeded")),
                        8,
                        8));

        QueueState state = QueueStateProjection.project(CQ, Map.of(H200, BigDecimal.valueOf(3)), workloads, T);

        assertThat(state.key()).isEqualTo("cq/gpuaas-team-a");
        assertThat(state.admittedWorkloads()).isEqualTo(1);
        assertThat(state.pendingActive()).isEqualTo(1);
        assertThat(state.pendingInadmissible()).isEqualTo(1);
        assertThat(state.admittedUsage()).isEqualTo(Map.of("h200", Map.of("nvidia.com/gpu", BigDecimal.valueOf(4))));
        assertThat(state.borrowed()).isEqualTo(Map.of("h200", Map.of("nvidia.com/gpu", BigDecimal.ONE)));
        assertThat(state.pendingDemand())
                .containsEntry("nvidia.com/gpu", BigDecimal.valueOf(3))
                .containsEntry("memory", BigDecimal.valueOf(3L * 1024 * 1024 * 1024));
    }

    @Test
    void shouldIgnoreTimeWhenComparingStates() {
        QueueState first = QueueStateProjection.project(CQ, Map.of(H200, BigDecimal.ONE), List.of(), T);
        QueueState later = QueueStateProjection.project(CQ, Map.of(H200, BigDecimal.ONE), List.of(), T.plusSeconds(5));

        assertThat(QueueStateProjection.sameState(first, later)).isTrue();
        assertThat(QueueStateProjection.sameState(
                        first, QueueStateProjection.project(CQ, Map.of(H200, BigDecimal.TWO), List.of(), T)))
                .isFalse();
    }
}
