package io.gpuaas.system.reliability.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a user can see of the system from outside: ClusterQueue quota and /metrics samples. */
public final class SystemView {

    private final ReliabilityStack stack;

    public SystemView(ReliabilityStack stack) {
        this.stack = stack;
    }

    /** nominalQuota of ClusterQueue {@code gpuaas-<tenant>} per flavor, 0 entries when it does not exist. */
    public Map<String, Long> tenantQuota(String tenant) {
        GenericKubernetesResource cq = stack.kube().genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context())
                .withName("gpuaas-" + tenant).get();
        Map<String, Long> out = new TreeMap<>();
        if (cq == null || !(cq.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)) {
            return out;
        }
        for (Object group : list(spec.get("resourceGroups"))) {
            for (Object flavor : list(((Map<?, ?>) group).get("flavors"))) {
                String name = String.valueOf(((Map<?, ?>) flavor).get("name"));
                for (Object resource : list(((Map<?, ?>) flavor).get("resources"))) {
                    long quota = quantity(((Map<?, ?>) resource).get("nominalQuota"));
                    if (quota > 0) {
                        out.merge(name, quota, Long::sum);
                    }
                }
            }
        }
        return out;
    }

    /** Sum of the samples of {@code metric} on a service's /metrics whose label text contains every {@code labels}. */
    public double metric(String service, String metric, String... labels) {
        HttpCalls.Response response = stack.http().get(stack.url(service) + "/metrics", stack.token("prometheus"));
        double sum = 0;
        for (String line : response.body().split("\n")) {
            if (!line.startsWith(metric + "{") && !line.startsWith(metric + " ")) {
                continue;
            }
            boolean all = true;
            for (String label : labels) {
                all &= line.contains(label);
            }
            if (all) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    public String metrics(String service) {
        return stack.http().get(stack.url(service) + "/metrics", stack.token("prometheus")).body();
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    private static long quantity(Object value) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(String.valueOf(value));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
