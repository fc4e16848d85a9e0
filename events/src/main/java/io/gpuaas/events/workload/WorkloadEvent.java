package io.gpuaas.events.workload;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Changes of Kueue Workloads; the values of {@code gpuaas.kueue-workloads}, keyed by {@code namespace/name}.
 */
public sealed interface WorkloadEvent
        permits WorkloadEvent.WorkloadObserved, WorkloadEvent.WorkloadDeleted, WorkloadEvent.FeedWatermark {

    /** Namespace of the Workload. */
    String namespace();

    /** Name of the Workload. */
    String name();

    /** When the change was observed. */
    Instant time();

    /** The record key of a workload. */
    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * A Workload as it was when one of its conditions changed.
     *
     * @param namespace       namespace of the Workload
     * @param name            name of the Workload
     * @param uid             Kubernetes uid (distinguishes a re-created Workload of the same name)
     * @param resourceVersion resourceVersion of the observed object
     * @param queueName       spec.queueName, the LocalQueue
     * @param clusterQueue    status.admission.clusterQueue, null while not admitted
     * @param priority        spec.priority, may be null
     * @param priorityClass   spec.priorityClassName, may be null
     * @param active          spec.active (false means deactivated)
     * @param transition      the condition transition that caused this record
     * @param conditions      all current conditions
     * @param podSets         the pod sets with their per-pod requests
     * @param admission       the admitted pod sets with their flavors and usage; empty while not admitted
     * @param owner           the owning job (RayCluster, RayJob, InferenceService, Job...), may be null
     * @param time            when the transition was observed
     */
    record WorkloadObserved(
            String namespace,
            String name,
            String uid,
            String resourceVersion,
            String queueName,
            String clusterQueue,
            Integer priority,
            String priorityClass,
            boolean active,
            Condition transition,
            List<Condition> conditions,
            List<PodSet> podSets,
            List<PodSetAdmission> admission,
            Owner owner,
            Instant time)
            implements WorkloadEvent {

        /** Whether the Workload currently holds an {@code Admitted=True} condition. */
        public boolean admitted() {
            return hasTrue("Admitted");
        }

        /** Whether the Workload currently holds a {@code Finished=True} condition. */
        public boolean finished() {
            return hasTrue("Finished");
        }

        /** Whether the Workload currently holds condition {@code type} with status {@code True}. */
        public boolean hasTrue(String type) {
            return conditions.stream().anyMatch(c -> c.type().equals(type) && "True".equals(c.status()));
        }
    }

    /**
     * A Workload was deleted.
     *
     * @param namespace    namespace of the Workload
     * @param name         name of the Workload
     * @param uid          uid of the deleted object, may be null
     * @param queueName    spec.queueName it had, may be null
     * @param clusterQueue the ClusterQueue it was admitted to, may be null
     * @param time         when the deletion was observed
     */
    record WorkloadDeleted(
            String namespace, String name, String uid, String queueName, String clusterQueue, Instant time)
            implements WorkloadEvent {}

    /**
     * Not a Workload: quota-projector's proof that the feed is live. The Lease holder, once its Workload informer is
     * synced and it has published what the cluster holds, writes one to every partition of the topic at a fixed
     * period, after the Workload records it sent before on the same producer: a reader that has read a partition's
     * watermark of {@code time} has read every Workload change that partition got before it. booking-service defers
     * no-show releases while the oldest of the partitions' newest watermarks is too old (quota-projector down, or its
     * informer not synced: Workloads created meanwhile would be missing, and bookings in use would look unused).
     * Keyed {@code gpuaas.io/feed-watermark-<partition>}: {@value #NAMESPACE} is no valid Kubernetes namespace name, so
     * no Workload shares a watermark's key.
     *
     * @param partition the partition of {@code gpuaas.kueue-workloads} it was written to
     * @param source    who wrote it (quota-projector's pod name)
     * @param time      when it was written
     */
    record FeedWatermark(int partition, String source, Instant time) implements WorkloadEvent {

        /** The namespace part of a watermark's key. */
        public static final String NAMESPACE = "gpuaas.io";

        /** The name part of a watermark's key. */
        @Override
        public String name() {
            return "feed-watermark-" + partition;
        }

        @Override
        public String namespace() {
            return NAMESPACE;
        }
    }

    /**
     * A status condition of a Workload.
     *
     * @param type               e.g. {@code QuotaReserved}, {@code Admitted}, {@code Evicted}, {@code Finished}
     * @param status             {@code True}, {@code False} or {@code Unknown}
     * @param reason             machine-readable reason, may be null
     * @param message            human-readable message, may be null
     * @param lastTransitionTime when the condition last changed, may be null
     */
    record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {}

    /**
     * A pod set of a Workload.
     *
     * @param name     pod set name
     * @param count    number of pods
     * @param requests per-pod resource requests as Kubernetes quantity strings, e.g. {@code nvidia.com/gpu: "1"}
     */
    record PodSet(String name, int count, Map<String, String> requests) {}

    /**
     * The admission of one pod set.
     *
     * @param name          pod set name
     * @param count         pods admitted
     * @param flavors       resource name to the ResourceFlavor it was admitted on
     * @param resourceUsage resource name to the total quantity admitted for the pod set
     */
    record PodSetAdmission(String name, int count, Map<String, String> flavors, Map<String, String> resourceUsage) {}

    /**
     * The controller owner of a Workload.
     *
     * @param apiVersion owner apiVersion, e.g. {@code ray.io/v1}
     * @param kind       owner kind, e.g. {@code RayCluster}
     * @param name       owner name
     * @param uid        owner uid
     */
    record Owner(String apiVersion, String kind, String name, String uid) {}
}
