package io.gpuaas.system.reliability.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.gpuaas.local.services.ServiceReplica;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a user can see of the system from outside: ClusterQueue quota and each replica's /metrics samples. */
public final class SystemView {

    private final ReliabilityStack stack;

    public SystemView(ReliabilityStack stack) {
        this.stack = stack;
    }

    /** GPU nominalQuota of ClusterQueue {@code gpuaas-<tenant>} per flavor, 0 entries when it does not exist. */
    public Map<String, Long> tenantQuota(String tenant) {
        GenericKubernetesResource cq = stack.kube()
                .genericKubernetesResources(GpuaasCrd.CLUSTER_QUEUE.context())
                .withName("gpuaas-" + tenant)
                .get();
        Map<String, Long> out = new TreeMap<>();
        if (cq == null || !(cq.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)) {
            return out;
        }
        for (Object group : list(spec.get("resourceGroups"))) {
            for (Object flavor : list(((Map<?, ?>) group).get("flavors"))) {
                String name = String.valueOf(((Map<?, ?>) flavor).get("name"));
                for (Object resource : list(((Map<?, ?>) flavor).get("resources"))) {
                    // Bookable cells only: the cpu/memory group every queue carries is a fixed ceiling, not a booking.
                    if (!String.valueOf(((Map<?, ?>) resource).get("name")).startsWith("nvidia.com/")) {
                        continue;
                    }
                    long quota = quantity(((Map<?, ?>) resource).get("nominalQuota"));
                    if (quota > 0) {
                        out.merge(name, quota, Long::sum);
                    }
                }
            }
        }
        return out;
    }

    /** Sum over the running replicas of {@code service} of {@link #metric(ServiceReplica, String, String...)}. */
    public double metric(String service, String metric, String... labels) {
        return metricByReplica(service, metric, labels).values().stream()
                .mapToDouble(Double::doubleValue)
                .sum();
    }

    /** Per running replica of {@code service}: each answers for itself (counters, and every projection it built). */
    public Map<ServiceReplica, Double> metricByReplica(String service, String metric, String... labels) {
        Map<ServiceReplica, Double> out = new LinkedHashMap<>();
        stack.replicas(service).stream().filter(stack::alive).forEach(r -> out.put(r, metric(r, metric, labels)));
        return out;
    }

    /** Sum of the samples of {@code metric} on a replica's /metrics whose label text contains all {@code labels}. */
    public double metric(ServiceReplica replica, String metric, String... labels) {
        double sum = 0;
        for (String line : metrics(replica).split("\n")) {
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

    public String metrics(ServiceReplica replica) {
        return stack.http()
                .get(stack.url(replica) + "/metrics", stack.token("prometheus"))
                .body();
    }

    /** The quota-projector replica holding the Lease ({@code gpuaas_quota_leader} 1), once one does. */
    public ServiceReplica awaitQuotaLeader(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (ServiceReplica r : stack.replicas("quota-projector")) {
                if (stack.alive(r) && metric(r, "gpuaas_quota_leader") == 1) {
                    return r;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no quota-projector replica took the Lease within " + timeout);
            }
            Thread.sleep(500);
        }
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
