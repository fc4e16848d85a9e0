package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.reclaim.model.Owner;
import io.gpuaas.reclaim.model.OwnerLookup;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scales RayCluster worker groups and InferenceService predictors to zero and back. Every write is one update of
 * the object with its resourceVersion, carrying the change and the {@code gpuaas.io/reclaimed-state} annotation
 * together, so the previous values are on the object whenever the change is; a conflict re-reads and re-plans.
 */
public final class WorkerScaler {

    /** How a raw-mode InferenceService is taken to zero. */
    public enum RawStrategy {
        STOP_ANNOTATION,
        DEPLOYMENT
    }

    private static final int ATTEMPTS = 3;

    private final KubernetesClient client;
    private final OwnerLookup owners;
    private final RawStrategy rawStrategy;
    private final boolean allowKueueNonElastic;
    private final Clock clock;

    public WorkerScaler(
            KubernetesClient client,
            OwnerLookup owners,
            RawStrategy rawStrategy,
            boolean allowKueueNonElastic,
            Clock clock) {
        this.client = client;
        this.owners = owners;
        this.rawStrategy = rawStrategy;
        this.allowKueueNonElastic = allowKueueNonElastic;
        this.clock = clock;
    }

    /**
     * Reclaims {@code gpuGroups} of the workload under {@code actionId}. Seeing the same id on the object again
     * (a retry after a restart) applies nothing twice.
     */
    public ScaleOutcome reclaim(WorkloadRef ref, Set<String> gpuGroups, String actionId, boolean dryRun) {
        for (int attempt = 1; ; attempt++) {
            try {
                return reclaimOnce(ref, gpuGroups, actionId, dryRun);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    return new ScaleOutcome.Failed("API_ERROR", ref.key() + ": " + e.getMessage());
                }
            } catch (IllegalArgumentException e) {
                return new ScaleOutcome.Failed("BAD_STATE", ref.key() + ": " + e.getMessage());
            }
        }
    }

    private ScaleOutcome reclaimOnce(WorkloadRef ref, Set<String> gpuGroups, String actionId, boolean dryRun) {
        HasMetadata object = get(ref);
        if (object == null) {
            return new ScaleOutcome.Failed("NOT_FOUND", ref.key() + " does not exist");
        }
        String stored = KubeResources.annotations(object).get(KubeResources.RECLAIMED_STATE);
        ReclaimedState previous = stored == null ? null : ReclaimedState.parse(stored);
        if (previous != null && actionId.equals(previous.actionId())) {
            ensureDeploymentScaled(ref, previous);
            return new ScaleOutcome.Applied(groupsOf(previous), "already applied by " + actionId, true);
        }
        if (object instanceof RayCluster cluster) {
            ScaleOutcome.Skipped leftAlone = leftAlone(ref, cluster);
            if (leftAlone != null) {
                return leftAlone;
            }
        }
        ScalePlan plan = plan(ref, object, gpuGroups, previous, actionId);
        if (plan.changesNothing()) {
            return new ScaleOutcome.Skipped("NOTHING_TO_SCALE", ref.key() + " has no worker group " + gpuGroups);
        }
        if (dryRun) {
            return new ScaleOutcome.Applied(plan.groups(), plan.action(), false);
        }
        KubeResources.mutableAnnotations(object)
                .put(KubeResources.RECLAIMED_STATE, plan.state().toJson());
        update(object);
        ensureDeploymentScaled(ref, plan.state());
        return new ScaleOutcome.Applied(plan.groups(), plan.action(), false);
    }

    /** Whether a reclaim of this object would be skipped (a RayCluster Kueue would requeue, or suspended). */
    public boolean leavesAlone(HasMetadata object) {
        return object instanceof RayCluster cluster && leftAlone(refOf(cluster), cluster) != null;
    }

    private static WorkloadRef refOf(HasMetadata object) {
        return new WorkloadRef(
                object.getMetadata().getNamespace(),
                object.getKind(),
                object.getMetadata().getName());
    }

    /** A RayCluster the reclaimer must not touch: Kueue would requeue it, or it is suspended already. */
    private ScaleOutcome.Skipped leftAlone(WorkloadRef ref, RayCluster cluster) {
        if (kueueNonElastic(cluster) && !allowKueueNonElastic) {
            return new ScaleOutcome.Skipped(
                    "KUEUE_NON_ELASTIC",
                    "Kueue would suspend and requeue " + ref.key()
                            + " (label " + KubeResources.KUEUE_QUEUE_LABEL + " without " + KubeResources.KUEUE_ELASTIC
                            + "=true), losing its admission; left running");
        }
        if (cluster.getSpec() != null && Boolean.TRUE.equals(cluster.getSpec().getSuspend())) {
            return new ScaleOutcome.Skipped("SUSPENDED", ref.key() + " is suspended");
        }
        return null;
    }

    private ScalePlan plan(
            WorkloadRef ref, HasMetadata object, Set<String> gpuGroups, ReclaimedState previous, String actionId) {
        var now = clock.instant();
        return switch (object) {
            case RayCluster cluster ->
                RayClusterPlan.reclaim(cluster, gpuGroups, g -> owners.podsOf(ref, g), previous, actionId, now);
            case InferenceService isvc -> planInferenceService(ref, isvc, previous, actionId, now);
            default -> throw new IllegalArgumentException("not a reclaimable kind: " + ref.kind());
        };
    }

    private ScalePlan planInferenceService(
            WorkloadRef ref, InferenceService isvc, ReclaimedState previous, String actionId, Instant now) {
        if (!InferenceServicePlan.rawMode(isvc)) {
            return InferenceServicePlan.reclaimServerless(isvc, previous, actionId, now);
        }
        if (rawStrategy == RawStrategy.STOP_ANNOTATION) {
            return InferenceServicePlan.reclaimByStop(isvc, previous, actionId, now);
        }
        Deployment deployment = predictorDeployment(ref);
        if (deployment == null) {
            return new ScalePlan(List.of(), null, "no Deployment " + ref.name() + "-predictor");
        }
        ReclaimedState.GroupState before = previous != null
                ? previous.groups().getFirst()
                : new ReclaimedState.GroupState(
                        Owner.PREDICTOR, deployment.getSpec().getReplicas(), null, null);
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.DEPLOYMENT, List.of(before), null);
        return new ScalePlan(
                List.of(new ScaledGroup(Owner.PREDICTOR, before.replicas(), null, 0)),
                state,
                "Deployment " + ref.name() + "-predictor to 0");
    }

    /** Restores exactly the stored values and removes the reclaim annotations; null when nothing was reclaimed. */
    public List<ScaledGroup> resume(WorkloadRef ref) {
        for (int attempt = 1; ; attempt++) {
            try {
                return resumeOnce(ref);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private List<ScaledGroup> resumeOnce(WorkloadRef ref) {
        HasMetadata object = get(ref);
        if (object == null) {
            throw new WorkloadNotFoundException(ref);
        }
        Map<String, String> annotations = KubeResources.mutableAnnotations(object);
        String stored = annotations.get(KubeResources.RECLAIMED_STATE);
        if (stored == null) {
            if (annotations.remove(KubeResources.RESUME) != null) {
                update(object);
            }
            return null;
        }
        ReclaimedState state = ReclaimedState.parse(stored);
        ScalePlan plan =
                switch (object) {
                    case RayCluster cluster -> RayClusterPlan.resume(cluster, state);
                    case InferenceService isvc -> InferenceServicePlan.resume(isvc, state);
                    default -> throw new IllegalArgumentException("not a reclaimable kind: " + ref.kind());
                };
        if (ReclaimedState.DEPLOYMENT.equals(state.strategy())) {
            // Scale first: the stored value must stay on the object until the Deployment has it back.
            Integer replicas = state.groups().getFirst().replicas();
            scaleDeployment(ref, replicas == null ? 1 : replicas);
        }
        annotations.remove(KubeResources.RECLAIMED_STATE);
        annotations.remove(KubeResources.RESUME);
        annotations.put(KubeResources.RESUMED_AT, clock.instant().toString());
        update(object);
        return plan.groups();
    }

    static boolean kueueNonElastic(HasMetadata object) {
        Map<String, String> labels = KubeResources.labels(object);
        if (!labels.containsKey(KubeResources.KUEUE_QUEUE_LABEL)) {
            return false;
        }
        String elastic = KubeResources.annotations(object)
                .getOrDefault(KubeResources.KUEUE_ELASTIC, labels.get(KubeResources.KUEUE_ELASTIC));
        return !"true".equalsIgnoreCase(elastic);
    }

    private static List<ScaledGroup> groupsOf(ReclaimedState state) {
        return state.groups().stream()
                .map(g -> new ScaledGroup(g.group(), g.replicas(), g.minReplicas(), 0))
                .toList();
    }

    private void ensureDeploymentScaled(WorkloadRef ref, ReclaimedState state) {
        if (ReclaimedState.DEPLOYMENT.equals(state.strategy())) {
            scaleDeployment(ref, 0);
        }
    }

    private Deployment predictorDeployment(WorkloadRef ref) {
        return client.apps()
                .deployments()
                .inNamespace(ref.namespace())
                .withName(ref.name() + "-predictor")
                .get();
    }

    private void scaleDeployment(WorkloadRef ref, int replicas) {
        client.apps()
                .deployments()
                .inNamespace(ref.namespace())
                .withName(ref.name() + "-predictor")
                .edit(d -> {
                    d.getSpec().setReplicas(replicas);
                    return d;
                });
    }

    private HasMetadata get(WorkloadRef ref) {
        return client.resources(KubeResources.type(ref.kind()))
                .inNamespace(ref.namespace())
                .withName(ref.name())
                .get();
    }

    /** A full update carrying the resourceVersion it was read at: a concurrent write makes it fail with 409. */
    private void update(HasMetadata object) {
        client.resource(object).update();
    }
}
