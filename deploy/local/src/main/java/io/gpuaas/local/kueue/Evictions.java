package io.gpuaas.local.kueue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kube.kueue.v1beta2.Workload;
import io.gpuaas.kube.kueue.v1beta2.WorkloadStatus;
import io.gpuaas.local.model.JsonPatch;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Kueue writes on a preempted Workload, and on its later readmission. The scheduler marks it {@code Evicted}
 * (reason {@code Preempted}) and {@code Preempted} (reason {@code InCohortReclamation} or {@code InClusterQueue}),
 * both with "Preempted to accommodate a workload (UID: …) due to …"; the workload controller, once the job stopped,
 * unsets the reservation: {@code QuotaReserved} False with reason {@code Pending} and the eviction's message,
 * {@code status.admission} cleared, {@code Admitted} False ({@code NoReservation}). The stand-in stops the job in the
 * same pass (its RayCluster is suspended, its pods go), so it writes all of it at once. When the Workload is admitted
 * again, {@code Evicted} and {@code Preempted} turn False with reason {@code QuotaReserved} and "Previously: …".
 */
final class Evictions {

    private static final Logger LOG = LoggerFactory.getLogger(Evictions.class);

    private static final Map<String, String> HUMAN_READABLE = Map.of(
            Preemptor.IN_CLUSTER_QUEUE, "prioritization in the ClusterQueue",
            Preemptor.IN_COHORT_RECLAMATION, "reclamation within the cohort");

    private final KubernetesClient client;

    Evictions(KubernetesClient client) {
        this.client = client;
    }

    /** Kueue's message on both conditions of a Workload preempted for {@code preemptorUid}. */
    static String message(String preemptorUid, String reason) {
        return "Preempted to accommodate a workload (UID: " + preemptorUid + ") due to " + HUMAN_READABLE.get(reason);
    }

    /** Evicts {@code workload}: its quota is released and it is pending again. */
    void preempt(WorkloadView workload, String reason, String preemptorUid) {
        Long generation = workload.resource().getMetadata().getGeneration();
        String message = message(preemptorUid, reason);
        List<Condition> conditions =
                Conditions.set(workload.conditions(), "Evicted", true, "Preempted", message, generation);
        conditions = Conditions.set(conditions, "Preempted", true, reason, message, generation);
        conditions = Conditions.set(conditions, "QuotaReserved", false, "Pending", message, generation);
        conditions = Conditions.set(
                conditions, "Admitted", false, "NoReservation", "The workload has no reservation", generation);
        WorkloadStatus status = new WorkloadStatus();
        status.setConditions(conditions);
        write(workload, status);
        LOG.info(
                "workload {}/{} preempted ({}) in {}",
                workload.namespace(),
                workload.name(),
                reason,
                workload.admission().map(Admission.Admitted::clusterQueue).orElse("?"));
    }

    /** The conditions of a readmitted Workload: a past eviction is kept as "Previously: …", status False. */
    static List<Condition> readmitted(List<Condition> conditions, Long generation) {
        List<Condition> result = conditions;
        for (String type : List.of("Evicted", "Preempted")) {
            for (Condition condition : conditions) {
                if (type.equals(condition.getType()) && "True".equals(condition.getStatus())) {
                    result = Conditions.set(
                            result, type, false, "QuotaReserved", "Previously: " + condition.getMessage(), generation);
                }
            }
        }
        return result;
    }

    private void write(WorkloadView workload, WorkloadStatus status) {
        client.resources(Workload.class)
                .inNamespace(workload.namespace())
                .withName(workload.name())
                .subresource("status")
                .patch(JsonPatch.CONTEXT, JsonPatch.set(client, "/status", status));
    }
}
