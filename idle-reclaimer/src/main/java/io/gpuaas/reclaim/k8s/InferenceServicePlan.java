package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.kube.kserve.v1beta1.InferenceServiceSpec;
import io.gpuaas.kube.kserve.v1beta1.inferenceservicespec.Predictor;
import io.gpuaas.reclaim.k8s.ReclaimedState.GroupState;
import io.gpuaas.reclaim.model.Owner;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Desired state of an InferenceService's predictor: to zero and back. Serverless (Knative) predictors accept
 * {@code minReplicas: 0} and come back by themselves on traffic; raw-mode predictors are stopped with the
 * {@code serving.kserve.io/stop} annotation (the Deployment variant lives in {@link WorkerScaler}).
 */
public final class InferenceServicePlan {

    private InferenceServicePlan() {}

    /** Raw mode ({@code RawDeployment}, or {@code Standard} in newer KServe) has no Knative scale-to-zero. */
    public static boolean rawMode(InferenceService isvc) {
        String mode = KubeResources.annotations(isvc).get(KubeResources.KSERVE_DEPLOYMENT_MODE);
        return "RawDeployment".equalsIgnoreCase(mode) || "Standard".equalsIgnoreCase(mode);
    }

    public static ScalePlan reclaimServerless(
            InferenceService isvc, ReclaimedState previous, String actionId, Instant now) {
        Predictor predictor = predictor(isvc);
        GroupState before = previous != null && !previous.groups().isEmpty()
                ? previous.groups().getFirst()
                : new GroupState(Owner.PREDICTOR, null, predictor.getMinReplicas(), null);
        predictor.setMinReplicas(0);
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.SERVERLESS, List.of(before), null);
        return new ScalePlan(
                List.of(new ScaledGroup(Owner.PREDICTOR, null, before.minReplicas(), 0)),
                state,
                "InferenceService predictor minReplicas to 0");
    }

    public static ScalePlan reclaimByStop(
            InferenceService isvc, ReclaimedState previous, String actionId, Instant now) {
        Map<String, String> annotations = KubeResources.mutableAnnotations(isvc);
        String previousStop = previous != null ? previous.previousStop() : annotations.get(KubeResources.KSERVE_STOP);
        annotations.put(KubeResources.KSERVE_STOP, "true");
        GroupState before =
                new GroupState(Owner.PREDICTOR, null, predictor(isvc).getMinReplicas(), null);
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.STOP, List.of(before), previousStop);
        return new ScalePlan(
                List.of(new ScaledGroup(Owner.PREDICTOR, null, before.minReplicas(), 0)),
                state,
                "InferenceService stopped (" + KubeResources.KSERVE_STOP + ")");
    }

    /** Restores what {@link #reclaimServerless} or {@link #reclaimByStop} changed on the InferenceService. */
    public static ScalePlan resume(InferenceService isvc, ReclaimedState state) {
        GroupState before = state.groups().isEmpty()
                ? new GroupState(Owner.PREDICTOR, null, null, null)
                : state.groups().getFirst();
        int restored = before.minReplicas() == null ? 1 : before.minReplicas();
        switch (state.strategy()) {
            case ReclaimedState.SERVERLESS -> predictor(isvc).setMinReplicas(before.minReplicas());
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
        return new ScalePlan(
                List.of(new ScaledGroup(Owner.PREDICTOR, 0, 0, restored)),
                state,
                "InferenceService predictor restored");
    }

    /** The predictor, created when absent so a plan can write into it. */
    private static Predictor predictor(InferenceService isvc) {
        if (isvc.getSpec() == null) {
            isvc.setSpec(new InferenceServiceSpec());
        }
        if (isvc.getSpec().getPredictor() == null) {
            isvc.getSpec().setPredictor(new Predictor());
        }
        return isvc.getSpec().getPredictor();
    }
}
