package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.reclaim.k8s.ReclaimedState.GroupState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Desired state of a RayCluster: worker groups to zero and back. Pure functions over the object; the caller writes.
 *
 * <p>KubeRay reconciles a worker group to {@code replicas}, bounded by {@code minReplicas}/{@code maxReplicas};
 * with in-tree autoscaling on, the autoscaler owns {@code replicas} and only removes the pods listed in
 * {@code scaleStrategy.workersToDelete}, so those are listed too.
 */
public final class RayClusterPlan {

    private RayClusterPlan() {
    }

    /**
     * @param gpuGroups    the worker groups whose GPUs were found idle (CPU-only groups are left alone)
     * @param podsOfGroup  current pods of a group
     * @param previous     state already on the object from an earlier reclaim: its values are the ones to restore
     */
    public static ScalePlan reclaim(GenericKubernetesResource cluster, Set<String> gpuGroups,
                                    Function<String, List<String>> podsOfGroup, ReclaimedState previous,
                                    String actionId, Instant now) {
        Map<String, Object> spec = KubeResources.spec(cluster);
        boolean autoscaling = Boolean.TRUE.equals(spec.get("enableInTreeAutoscaling"));
        List<GroupState> states = new ArrayList<>();
        List<ScaledGroup> changed = new ArrayList<>();
        for (Map<String, Object> group : KubeResources.list(spec, "workerGroupSpecs")) {
            String name = String.valueOf(group.get("groupName"));
            if (!gpuGroups.contains(name)) {
                continue;
            }
            GroupState before = previousOf(previous, name);
            if (before == null) {
                before = new GroupState(name, KubeResources.integer(group, "replicas"),
                        KubeResources.integer(group, "minReplicas"), workersToDelete(group));
            }
            states.add(before);
            changed.add(new ScaledGroup(name, before.replicas(), before.minReplicas(), 0));
            group.put("replicas", 0);
            group.put("minReplicas", 0);
            if (autoscaling) {
                Map<String, Object> strategy = KubeResources.child(group, "scaleStrategy");
                if (strategy == null) {
                    strategy = new LinkedHashMap<>();
                    group.put("scaleStrategy", strategy);
                }
                strategy.put("workersToDelete", new ArrayList<>(podsOfGroup.apply(name)));
            }
        }
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.RAY, states, null);
        return new ScalePlan(changed, state, "RayCluster worker groups " + gpuGroups + " to 0");
    }

    /** Restores every group to exactly the values in {@code state}; fields that were absent are removed. */
    public static ScalePlan resume(GenericKubernetesResource cluster, ReclaimedState state) {
        Map<String, Object> spec = KubeResources.spec(cluster);
        List<ScaledGroup> changed = new ArrayList<>();
        for (Map<String, Object> group : KubeResources.list(spec, "workerGroupSpecs")) {
            GroupState before = previousOf(state, String.valueOf(group.get("groupName")));
            if (before == null) {
                continue;
            }
            Integer current = KubeResources.integer(group, "replicas");
            KubeResources.putOrRemove(group, "replicas", before.replicas());
            KubeResources.putOrRemove(group, "minReplicas", before.minReplicas());
            Map<String, Object> strategy = KubeResources.child(group, "scaleStrategy");
            if (strategy != null) {
                KubeResources.putOrRemove(strategy, "workersToDelete", before.workersToDelete());
                if (strategy.isEmpty()) {
                    group.remove("scaleStrategy");
                }
            }
            changed.add(new ScaledGroup(before.group(), current, 0,
                    before.replicas() == null ? 0 : before.replicas()));
        }
        return new ScalePlan(changed, state, "RayCluster worker groups restored");
    }

    private static GroupState previousOf(ReclaimedState state, String group) {
        if (state == null) {
            return null;
        }
        return state.groups().stream().filter(g -> g.group().equals(group)).findFirst().orElse(null);
    }

    @SuppressWarnings("unchecked")
    private static List<String> workersToDelete(Map<String, Object> group) {
        Map<String, Object> strategy = KubeResources.child(group, "scaleStrategy");
        if (strategy == null || !(strategy.get("workersToDelete") instanceof List<?> pods)) {
            return null;
        }
        return new ArrayList<>((List<String>) pods);
    }
}
