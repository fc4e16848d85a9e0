package io.gpuaas.bench.quota;

import static io.gpuaas.bench.quota.QuotaBench.clusterQueue;
import static io.gpuaas.bench.quota.QuotaBench.send;
import static io.gpuaas.bench.quota.QuotaBench.tenant;
import static io.gpuaas.bench.quota.QuotaBench.waitUntil;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.kube.kueue.v1beta2.ClusterQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * One set of boundary measurements with their baselines, labelled with {@code suffix}; booking ids and baseline
 * object names carry {@code tag}, so a second set never meets the first one's objects.
 */
record BoundaryPhase(
        String tag,
        String suffix,
        int spreadSeconds,
        int windowSeconds,
        KubernetesClient client,
        KafkaProducer<String, Booking> producer,
        KafkaClients kafka,
        ClusterQueueWatch watch) {

    List<Latencies> run(int tenants, int burst) throws Exception {
        List<Latencies> rows = new ArrayList<>();
        rows.add(rawCreateFloor(200));
        rows.add(rawScheduled(tenants));
        rows.addAll(staggered(tenants));
        rows.addAll(aligned(burst));
        return rows;
    }

    /** Starts spread evenly over {@code spreadSeconds} (20 s: 50 a second for 1,000 tenants), windows 15 s long. */
    private List<Latencies> staggered(int tenants) throws Exception {
        watch.reset();
        Instant first = Instant.now().plusSeconds(8);
        long stepMicros = spreadSeconds * 1_000_000L / tenants;
        Map<String, Instant[]> windows = new ConcurrentHashMap<>();
        for (int i = 0; i < tenants; i++) {
            Instant start = first.plusNanos(i * stepMicros * 1000);
            Instant end = start.plusSeconds(windowSeconds);
            windows.put("gpuaas-" + tenant(i), new Instant[] {start, end});
            send(producer, kafka, tag + "-stag-" + i, tenant(i), 2, start, end);
        }
        producer.flush();
        waitUntil(first.plusSeconds(windowSeconds + spreadSeconds + 5));
        return List.of(
                watch.startLatencies(
                        "boundary → ClusterQueue, starts spread over " + spreadSeconds + " s" + suffix, windows),
                watch.endLatencies(
                        "boundary → ClusterQueue drained, ends spread over " + spreadSeconds + " s" + suffix, windows));
    }

    /** {@code count} tenants whose windows start on the same instant: the worst case, many writes at once. */
    private List<Latencies> aligned(int count) throws Exception {
        watch.reset();
        Instant start = Instant.now().plusSeconds(6);
        Instant end = start.plusSeconds(8);
        Map<String, Instant[]> windows = new ConcurrentHashMap<>();
        for (int i = 0; i < count; i++) {
            windows.put("gpuaas-" + tenant(i), new Instant[] {start, end});
            send(producer, kafka, tag + "-burst-" + i, tenant(i), 1, start, end);
        }
        producer.flush();
        waitUntil(end.plusSeconds(6));
        return List.of(
                watch.startLatencies("boundary → ClusterQueue, " + count + " starts on one instant" + suffix, windows),
                watch.endLatencies(
                        "boundary → ClusterQueue drained, " + count + " ends on one instant" + suffix, windows));
    }

    /** The floor: a client creates a ClusterQueue; how long until a watching client sees it. */
    private Latencies rawCreateFloor(int count) throws Exception {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = tag + "-floor-" + i;
            ClusterQueue cq = clusterQueue(name);
            long t0 = System.nanoTime();
            client.resource(cq).create();
            Long seen = watch.awaitSeen(name, Duration.ofSeconds(5));
            if (seen != null) {
                millis.add((seen - t0) / 1e6);
            }
            client.resources(ClusterQueue.class).withName(name).delete();
        }
        return Latencies.of("baseline: raw create → watch event (same API server)" + suffix, millis);
    }

    /**
     * The baseline under the same load pattern: this client itself creates one ClusterQueue per tenant at the
     * same spread-out instants (4 threads), measured the same way. The difference to the projector's row is what
     * bookings → plan → writer adds.
     */
    private Latencies rawScheduled(int count) throws Exception {
        watch.reset();
        Instant first = Instant.now().plusSeconds(3);
        long stepNanos = spreadSeconds * 1_000_000_000L / count;
        Map<String, Instant[]> windows = new ConcurrentHashMap<>();
        var pool = Executors.newScheduledThreadPool(4);
        for (int i = 0; i < count; i++) {
            String name = tag + "-raw-" + i;
            Instant at = first.plusNanos(i * stepNanos);
            windows.put(name, new Instant[] {at, at});
            pool.schedule(
                    () -> client.resources(ClusterQueue.class)
                            .resource(clusterQueue(name))
                            .create(),
                    Duration.between(Instant.now(), at).toNanos(),
                    TimeUnit.NANOSECONDS);
        }
        waitUntil(first.plusSeconds(spreadSeconds + 2));
        pool.shutdown();
        Latencies result = watch.startLatencies(
                "baseline: raw create at each instant, same spread (no projector)" + suffix, windows);
        for (String name : windows.keySet()) {
            client.resources(ClusterQueue.class).withName(name).delete();
        }
        return result;
    }
}
