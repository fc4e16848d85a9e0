package io.gpuaas.system.reliability.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.local.fleet.Attribution;
import io.gpuaas.local.k8s.DemoWorkloads;
import io.gpuaas.testing.k8s.GpuaasCrd;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several workloads going idle a couple of seconds apart, so their reclaim windows close one after the other and a
 * kill lands among them: Ray clusters with two workers of one {@code 2g.35gb} slice each and serverless
 * InferenceServices on one {@code 3g.71gb} slice each (profiles no other test uses), outside Kueue (not queued, so
 * the stand-in starts their pods at once and the reclaimer acts on them), pinned idle through the simulated fleet.
 */
public final class ReclaimLoad {

    /** What one workload went through, read from reclaim-events and from the object. */
    public record Outcome(String key, int reclaimed, int sameWindow, int scaleDowns, int reclaimStates, int workers) {

        public boolean done() {
            return reclaimed >= 1 && workers == 0;
        }

        /** Empty when it was reclaimed exactly once: one Reclaimed event, one scale-down, one stored state. */
        public List<String> problems() {
            List<String> out = new ArrayList<>();
            if (reclaimed != 1 || sameWindow > 1) {
                out.add(key + ": " + reclaimed + " Reclaimed events (" + sameWindow + " for one idle window)");
            }
            if (scaleDowns != 1 || reclaimStates != 1) {
                out.add(key + ": " + scaleDowns + " scale-downs and " + reclaimStates + " reclaim states written");
            }
            if (workers != 0) {
                out.add(key + ": still asks for " + workers + " GPU workers");
            }
            return out;
        }
    }

    private final KubernetesClient client;
    private final Map<String, GpuaasCrd> workloads = new LinkedHashMap<>();

    private ReclaimLoad(KubernetesClient client) {
        this.client = client;
    }

    /** Creates {@code rays} Ray clusters and {@code services} InferenceServices, {@code stagger} apart. */
    public static ReclaimLoad create(KubernetesClient client, String run, int rays, int services, Duration stagger)
            throws InterruptedException {
        ReclaimLoad load = new ReclaimLoad(client);
        for (int i = 0; i < Math.max(rays, services); i++) {
            String namespace = i % 2 == 0 ? "team-a" : "team-b";
            if (i < rays) {
                load.add(
                        GpuaasCrd.RAY_CLUSTER,
                        DemoWorkloads.rayCluster(namespace, run + "-ray-" + i, "nvidia.com/mig-2g.35gb", 2));
                Thread.sleep(stagger.toMillis());
            }
            if (i < services) {
                load.add(
                        GpuaasCrd.INFERENCE_SERVICE,
                        DemoWorkloads.inferenceService(namespace, run + "-llm-" + i, "nvidia.com/mig-3g.71gb", 1));
                Thread.sleep(stagger.toMillis());
            }
        }
        return load;
    }

    private void add(GpuaasCrd crd, HasMetadata workload) {
        workload.getMetadata().setLabels(Map.of());
        workload.getMetadata().setAnnotations(Map.of(Attribution.ANNOTATION, "idle"));
        client.resource(workload).create();
        workloads.put(
                workload.getMetadata().getNamespace() + "/" + workload.getKind() + "/"
                        + workload.getMetadata().getName(),
                crd);
    }

    /** {@code namespace/Kind/name} of every workload, the reclaim-events keys. */
    public List<String> keys() {
        return List.copyOf(workloads.keySet());
    }

    /** Each workload's reclaims so far, on the topic (Reclaimed per idle window) and on the object. */
    public List<Outcome> outcomes(KafkaProbe kafka, ScaleWrites writes) {
        Map<String, List<ReclaimEvent>> steps = Ledger.reclaims(kafka);
        return keys().stream()
                .map(key -> {
                    int reclaimed = 0;
                    Map<Instant, Integer> perWindow = new HashMap<>();
                    Instant window = null;
                    for (ReclaimEvent e : steps.getOrDefault(key, List.of())) {
                        switch (e) {
                            case ReclaimEvent.IdleDetected idle -> window = idle.idleSince();
                            case ReclaimEvent.Reclaimed r
                            when !r.dryRun() -> {
                                reclaimed++;
                                perWindow.merge(window == null ? Instant.EPOCH : window, 1, Integer::sum);
                            }
                            default -> {}
                        }
                    }
                    int sameWindow = perWindow.values().stream()
                            .mapToInt(Integer::intValue)
                            .max()
                            .orElse(0);
                    return new Outcome(
                            key,
                            reclaimed,
                            sameWindow,
                            writes.scaleDowns(key),
                            writes.reclaimStates(key),
                            writes.workers(key));
                })
                .toList();
    }

    /** Per workload: Reclaimed events / scale-downs / reclaim states seen, e.g. {@code <run>-ray-0 1/1/1}. */
    public static String summary(List<Outcome> outcomes) {
        return "(Reclaimed events/scale-downs/states) "
                + outcomes.stream()
                        .map(o -> o.key().substring(o.key().lastIndexOf('/') + 1) + " " + o.reclaimed() + "/"
                                + o.scaleDowns() + "/"
                                + o.reclaimStates())
                        .collect(java.util.stream.Collectors.joining(", "));
    }

    /** Waits until every workload is reclaimed (or the timeout passes) and answers the last outcomes. */
    public List<Outcome> awaitReclaimed(KafkaProbe kafka, ScaleWrites writes, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Outcome> outcomes = outcomes(kafka, writes);
            if (outcomes.stream().allMatch(Outcome::done) || System.nanoTime() > deadline) {
                return outcomes;
            }
            Thread.sleep(2000);
        }
    }

    /** Waits until some workload of the load has a reclaim state stored on its object. */
    public void awaitFirstReclaim(ScaleWrites writes, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (keys().stream().noneMatch(k -> writes.reclaimStates(k) > 0)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no workload of the reclaim load was reclaimed within " + timeout);
            }
            Thread.sleep(250);
        }
    }

    /** Resumes every workload through the idle-reclaimer replicas in turn; answers each resume that was not 200. */
    public List<String> resumeAll(ReliabilityStack stack) {
        List<String> problems = new ArrayList<>();
        for (String key : keys()) {
            String namespace = key.substring(0, key.indexOf('/'));
            HttpCalls.Response r = stack.http()
                    .send(
                            "POST",
                            stack.url("idle-reclaimer") + "/api/v1/workloads/" + key + "/resume",
                            stack.token(namespace),
                            null,
                            Map.of());
            if (r.status() != 200) {
                problems.add(
                        "resume of " + key + " answered " + (r.answered() ? r.status() + " " + r.body() : r.error()));
            }
        }
        return problems;
    }

    public void delete() {
        workloads.forEach((key, crd) -> {
            String[] parts = key.split("/");
            client.genericKubernetesResources(crd.context())
                    .inNamespace(parts[0])
                    .withName(parts[2])
                    .delete();
        });
    }
}
