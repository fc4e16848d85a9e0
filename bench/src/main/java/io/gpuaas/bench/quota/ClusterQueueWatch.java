package io.gpuaas.bench.quota;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Records, per ClusterQueue, wall-clock instants when it first held quota and when it was drained or deleted. */
final class ClusterQueueWatch implements ResourceEventHandler<ClusterQueue>, AutoCloseable {
    private final KubernetesClient client;
    private final Map<String, Instant> granted = new ConcurrentHashMap<>();
    private final Map<String, Instant> drained = new ConcurrentHashMap<>();
    private final Map<String, Long> seenNanos = new ConcurrentHashMap<>();
    private final io.fabric8.kubernetes.client.informers.SharedIndexInformer<ClusterQueue> informer;

    ClusterQueueWatch(KubernetesClient client) {
        this.client = client;
        this.informer = client.resources(ClusterQueue.class).inform(this, 0);
    }

    void reset() {
        granted.clear();
        drained.clear();
    }

    @Override
    public void onAdd(ClusterQueue cq) {
        seenNanos.put(cq.getMetadata().getName(), System.nanoTime());
        record(cq);
    }

    @Override
    public void onUpdate(ClusterQueue before, ClusterQueue cq) {
        record(cq);
    }

    @Override
    public void onDelete(ClusterQueue cq, boolean unknown) {
        drained.putIfAbsent(cq.getMetadata().getName(), Instant.now());
    }

    private void record(ClusterQueue cq) {
        Instant now = Instant.now();
        if (QuotaBench.nominal(cq) > 0) {
            granted.putIfAbsent(cq.getMetadata().getName(), now);
        } else if (granted.containsKey(cq.getMetadata().getName())) {
            drained.putIfAbsent(cq.getMetadata().getName(), now);
        }
    }

    Long awaitSeen(String name, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Long seen = seenNanos.remove(name);
            if (seen != null) {
                return seen;
            }
            Thread.sleep(0, 200_000);
        }
        return null;
    }

    Latencies startLatencies(String name, Map<String, Instant[]> windows) {
        return latencies(name, windows, granted, 0);
    }

    Latencies endLatencies(String name, Map<String, Instant[]> windows) {
        return latencies(name, windows, drained, 1);
    }

    private static Latencies latencies(
            String name, Map<String, Instant[]> windows, Map<String, Instant> seen, int which) {
        List<Double> millis = new ArrayList<>();
        int missing = 0;
        for (var window : windows.entrySet()) {
            Instant at = seen.get(window.getKey());
            if (at == null) {
                missing++;
            } else {
                millis.add(Duration.between(window.getValue()[which], at).toNanos() / 1e6);
            }
        }
        return Latencies.of(missing == 0 ? name : name + " (" + missing + " never seen)", millis);
    }

    @Override
    public void close() {
        informer.close();
        client.close();
    }
}
