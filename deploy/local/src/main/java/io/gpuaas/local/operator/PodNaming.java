package io.gpuaas.local.operator;

import io.gpuaas.local.model.WorkloadOwner;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Pod names and labels as KubeRay and KServe give them, so the reclaimer finds pods the way it will in a cluster. */
public final class PodNaming {

    /** Marks pods this stand-in created, so it alone garbage-collects them. */
    public static final String SIMULATED_LABEL = "gpuaas.io/simulated";

    static final String HEAD_GROUP = "head";
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private PodNaming() {}

    static Map<String, String> labels(WorkloadOwner owner, String podSet) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (WorkloadOwner.RAY_CLUSTER.equals(owner.kind())) {
            boolean head = HEAD_GROUP.equals(podSet);
            labels.put("ray.io/cluster", owner.name());
            labels.put("ray.io/group", head ? "headgroup" : podSet);
            labels.put("ray.io/node-type", head ? "head" : "worker");
            labels.put("ray.io/is-ray-node", "yes");
            labels.put("app.kubernetes.io/created-by", "kuberay-operator");
        } else {
            labels.put("serving.kserve.io/inferenceservice", owner.name());
            labels.put("component", "predictor");
            labels.put("app", owner.name() + "-predictor");
        }
        labels.put(SIMULATED_LABEL, "true");
        return labels;
    }

    /** Selector of the pods of one pod set. */
    static Map<String, String> selector(WorkloadOwner owner, String podSet) {
        Map<String, String> selector = new LinkedHashMap<>(labels(owner, podSet));
        selector.remove("ray.io/is-ray-node");
        selector.remove("app.kubernetes.io/created-by");
        selector.remove("app");
        return selector;
    }

    static String podName(WorkloadOwner owner, String podSet) {
        String prefix;
        if (WorkloadOwner.RAY_CLUSTER.equals(owner.kind())) {
            prefix = HEAD_GROUP.equals(podSet) ? owner.name() + "-head-" : owner.name() + "-" + podSet + "-worker-";
        } else {
            prefix = owner.name() + "-predictor-"
                    + Integer.toHexString(owner.uid().hashCode() & 0xfffffff) + "-";
        }
        return prefix + suffix();
    }

    private static String suffix() {
        StringBuilder suffix = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            suffix.append(ALPHABET.charAt(ThreadLocalRandom.current().nextInt(ALPHABET.length())));
        }
        return suffix.toString();
    }
}
