package io.gpuaas.reclaim.k8s;

import io.gpuaas.events.reclaim.ReclaimEvent.ScaledGroup;
import io.gpuaas.kube.ray.v1.RayCluster;
import io.gpuaas.kube.ray.v1.rayclusterspec.WorkerGroupSpecs;
import io.gpuaas.kube.ray.v1.rayclusterspec.workergroupspecs.ScaleStrategy;
import io.gpuaas.reclaim.k8s.ReclaimedState.GroupState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

    private RayClusterPlan() {}

    /**
     * @param gpuGroups    the worker groups whose GPUs were found idle (CPU-only groups are left alone)
     * @param podsOfGroup  current pods of a group
     * @param previous     state already on the object from an earlier reclaim: its values are the ones to restore
     */
    public static ScalePlan reclaim(
            RayCluster cluster,
            Set<String> gpuGroups,
            Function<String, List<String>> podsOfGroup,
            ReclaimedState previous,
            String actionId,
            Instant now) {
        boolean autoscaling = cluster.getSpec() != null
                && Boolean.TRUE.equals(cluster.getSpec().getEnableInTreeAutoscaling());
        List<GroupState> states = new ArrayList<>();
        List<ScaledGroup> changed = new ArrayList<>();
        for (WorkerGroupSpecs group : workerGroups(cluster)) {
            String name = String.valueOf(group.getGroupName());
            if (!gpuGroups.contains(name)) {
                continue;
            }
            GroupState before = previousOf(previous, name);
            if (before == null) {
                before = new GroupState(name, group.getReplicas(), group.getMinReplicas(), workersToDelete(group));
            }
            states.add(before);
            changed.add(new ScaledGroup(name, before.replicas(), before.minReplicas(), 0));
            group.setReplicas(0);
            group.setMinReplicas(0);
            if (autoscaling) {
                if (group.getScaleStrategy() == null) {
                    group.setScaleStrategy(new ScaleStrategy());
                }
                group.getScaleStrategy().setWorkersToDelete(new ArrayList<>(podsOfGroup.apply(name)));
            }
        }
        ReclaimedState state = new ReclaimedState(actionId, now, ReclaimedState.RAY, states, null);
        return new ScalePlan(changed, state, "RayCluster worker groups " + gpuGroups + " to 0");
    }

    /** Restores every group to exactly the values in {@code state}; fields that were absent are removed. */
    public static ScalePlan resume(RayCluster cluster, ReclaimedState state) {
        List<ScaledGroup> changed = new ArrayList<>();
        for (WorkerGroupSpecs group : workerGroups(cluster)) {
            GroupState before = previousOf(state, String.valueOf(group.getGroupName()));
            if (before == null) {
                continue;
            }
            Integer current = group.getReplicas();
            group.setReplicas(before.replicas());
            group.setMinReplicas(before.minReplicas());
            ScaleStrategy strategy = group.getScaleStrategy();
            if (strategy != null) {
                strategy.setWorkersToDelete(before.workersToDelete());
                if (before.workersToDelete() == null
                        && strategy.getAdditionalProperties().isEmpty()) {
                    group.setScaleStrategy(null);
                }
            }
            changed.add(new ScaledGroup(before.group(), current, 0, before.replicas() == null ? 0 : before.replicas()));
        }
        return new ScalePlan(changed, state, "RayCluster worker groups restored");
    }

    private static List<WorkerGroupSpecs> workerGroups(RayCluster cluster) {
        if (cluster.getSpec() == null || cluster.getSpec().getWorkerGroupSpecs() == null) {
            return List.of();
        }
        return cluster.getSpec().getWorkerGroupSpecs();
    }

    private static GroupState previousOf(ReclaimedState state, String group) {
        if (state == null) {
            return null;
        }
        return state.groups().stream()
                .filter(g -> g.group().equals(group))
                .findFirst()
                .orElse(null);
    }

    private static List<String> workersToDelete(WorkerGroupSpecs group) {
        ScaleStrategy strategy = group.getScaleStrategy();
        return strategy == null || strategy.getWorkersToDelete() == null
                ? null
                : new ArrayList<>(strategy.getWorkersToDelete());
    }
}
