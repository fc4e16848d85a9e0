package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.reclaim.k8s.ReclaimedState.GroupState;
import io.gpuaas.reclaim.model.Owner;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Desired state of an InferenceService's predictor: to zero and back. Serverless (Knative) predictors accept
 * {@code minReplicas: 0} and come back by themselves on traffic; raw-mode predictors are stopped with the
 * {@code serving.kserve.io/stop} annotation (the Deployment variant lives in {@link WorkerScaler}).
 */
public final class InferenceServicePlan {

    private InferenceServicePlan() {
    }

    /** Raw mode ({@code RawDeployment}, or {@code Standard} in newer KServe) has no Knative scale-to-zero. */
    public static boolean rawMode(GenericKubernetesResource isvc) {
        String mode = KubeResources.annotations(isvc).get(KubeResources.KSERVE_DEPLOYMENT_MODE);
        return "RawDeployment".equalsIgnoreCase(mode) || "Standard".equalsIgnoreCase(mode);
    }

    public static ScalePlan reclaimServerless(GenericKubernetesResource isvc, ReclaimedState previous,
                                              String actionId, Instant now) {
        Map<String, Object> predictor = predictor(isvc);
        GroupState before = previous != null && !previous.groups().isEmpty() ? previous.groups().getFirst()
                : new GroupState(Owner.PREDICTOR, null, KubeResources.integer(predictor, "minReplicas"), null);
        predictor.put("minReplicas", 0);
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.SERVERLESS, List.of(before), null);
        return new ScalePlan(List.of(new ScaledGroup(Owner.PREDICTOR, null, before.minReplicas(), 0)), state,
                "InferenceService predictor minReplicas to 0");
    }

    public static ScalePlan reclaimByStop(GenericKubernetesResource isvc, ReclaimedState previous, String actionId,
                                          Instant now) {
        Map<String, String> annotations = KubeResources.mutableAnnotations(isvc);
        String previousStop = previous != null ? previous.previousStop() : annotations.get(KubeResources.KSERVE_STOP);
        annotations.put(KubeResources.KSERVE_STOP, "true");
        GroupState before = new GroupState(Owner.PREDICTOR, null, KubeResources.integer(predictor(isvc), "minReplicas"),
                null);
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.STOP, List.of(before), previousStop);
        return new ScalePlan(List.of(new ScaledGroup(Owner.PREDICTOR, null, before.minReplicas(), 0)), state,
                "InferenceService stopped (" + KubeResources.KSERVE_STOP + ")");
    }

    /** Restores what {@link #reclaimServerless} or {@link #reclaimByStop} changed on the InferenceService. */
    public static ScalePlan resume(GenericKubernetesResource isvc, ReclaimedState state) {
        GroupState before = state.groups().isEmpty() ? new GroupState(Owner.PREDICTOR, null, null, null)
                : state.groups().getFirst();
        int restored = before.minReplicas() == null ? 1 : before.minReplicas();
        switch (state.strategy()) {
            case ReclaimedState.SERVERLESS -> KubeResources.putOrRemove(predictor(isvc), "minReplicas", before.minReplicas());
            case ReclaimedState.STOP -> {
                Map<String, String> annotations = KubeResources.mutableAnnotations(isvc);
                if (state.previousStop() == null) {
                    annotations.remove(KubeResources.KSERVE_STOP);
                } else {
                    annotations.put(KubeResources.KSERVE_STOP, state.previousStop());
                }
            }
            default -> {
                // predictor-deployment: the Deployment is restored by the scaler; nothing on the object itself.
                restored = before.replicas() == null ? 1 : before.replicas();
            }
        }
        return new ScalePlan(List.of(new ScaledGroup(Owner.PREDICTOR, 0, 0, restored)), state,
                "InferenceService predictor restored");
    }

    private static Map<String, Object> predictor(GenericKubernetesResource isvc) {
        Map<String, Object> spec = KubeResources.spec(isvc);
        Map<String, Object> predictor = KubeResources.child(spec, "predictor");
        if (predictor == null) {
            predictor = new LinkedHashMap<>();
            spec.put("predictor", predictor);
        }
        return predictor;
    }
}
