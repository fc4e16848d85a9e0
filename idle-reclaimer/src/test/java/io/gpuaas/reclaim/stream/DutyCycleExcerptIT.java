package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.kube.kserve.v1beta1.InferenceService;
import io.gpuaas.reclaim.Fixtures;
import io.gpuaas.reclaim.ReclaimerHarness;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.k8s.KubernetesApiExtension;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real serving-pod utilization (an excerpt of the Alibaba GenAI trace, see trace/*.SOURCE.md) through the real
 * pipeline, each pod a serverless predictor: every reclaim must be one an oracle computed straight from the CSV
 * also makes, and none may be missing.
 */
@ExtendWith({KafkaBrokerExtension.class, KubernetesApiExtension.class})
class DutyCycleExcerptIT {

    static final int WINDOW = 15;
    static final double THRESHOLD = 0.05;
    static final IdlePolicy POLICY =
            new IdlePolicy(THRESHOLD, Duration.ofMinutes(WINDOW), Duration.ofMinutes(1), 0.9, Duration.ZERO, true);
    static final String NS = "trace";

    static ReclaimerHarness harness;
    /** pod → minute → utilization ratio; the k-th distinct timestamp is minute k. */
    static Map<String, TreeMap<Integer, Double>> trace;

    @BeforeAll
    static void start(KafkaBroker broker, KubernetesApi api) throws Exception {
        trace = load();
        api.client().namespaces().resource(Fixtures.namespace(NS, "trace")).create();
        harness = new ReclaimerHarness(broker, api, POLICY, Mode.DIRECT, false);
        for (String pod : trace.keySet()) {
            harness.client
                    .resources(InferenceService.class)
                    .inNamespace(NS)
                    .resource(Fixtures.inferenceService(NS, name(pod), 1, Map.of()))
                    .create();
            harness.client
                    .pods()
                    .inNamespace(NS)
                    .resource(Fixtures.predictor(NS, name(pod), name(pod) + "-0", "nvidia.com/gpu", 1))
                    .create();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> trace.keySet().stream()
                .allMatch(p -> harness.owners.ownerOf(NS, name(p) + "-0").isPresent()
                        && harness.directory
                                .find(new WorkloadRef(NS, "InferenceService", name(p)))
                                .isPresent()));
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
    }

    static String name(String pod) {
        return "p" + pod.substring(0, 8);
    }

    static Map<String, TreeMap<Integer, Double>> load() throws Exception {
        List<String[]> rows = new ArrayList<>();
        try (var in = new BufferedReader(new InputStreamReader(
                DutyCycleExcerptIT.class.getResourceAsStream("/trace/gpu-duty-cycle-excerpt.csv"),
                StandardCharsets.UTF_8))) {
            in.readLine();
            in.lines().forEach(l -> rows.add(l.split(",")));
        }
        TreeSet<Double> stamps =
                rows.stream().map(r -> Double.parseDouble(r[1])).collect(Collectors.toCollection(TreeSet::new));
        List<Double> ordered = new ArrayList<>(stamps);
        Map<String, TreeMap<Integer, Double>> byPod = new TreeMap<>();
        for (String[] r : rows) {
            byPod.computeIfAbsent(r[2], p -> new TreeMap<>())
                    .put(ordered.indexOf(Double.parseDouble(r[1])), Double.parseDouble(r[0]) / 100.0);
        }
        return byPod;
    }

    /** The oracle: reclaim minutes per pod, from the definition, with no reclaimer code. */
    static Set<String> oracle() {
        int required = (int) Math.ceil(0.9 * WINDOW - 1e-9);
        Set<String> out = new TreeSet<>();
        trace.forEach((pod, series) -> {
            boolean reclaimed = false;
            for (var e : series.entrySet()) {
                boolean busy = e.getValue() > THRESHOLD;
                if (reclaimed) {
                    reclaimed = !busy;
                    continue;
                }
                var window = series.subMap(e.getKey() - WINDOW + 1, true, e.getKey(), true);
                if (!busy
                        && window.size() >= required
                        && window.values().stream().allMatch(u -> u <= THRESHOLD)) {
                    out.add(name(pod) + "@" + e.getKey());
                    reclaimed = true;
                }
            }
        });
        return out;
    }

    @Test
    void shouldReclaimExactlyWhereTheOracleDoes() {
        // A window may not reach back before its pod was created: start the trace a window after now.
        long t0 = (System.currentTimeMillis() / 60_000 + WINDOW + 2) * 60_000;
        List<GpuScrape> samples = new ArrayList<>();
        trace.forEach((pod, series) -> series.forEach((minute, u) -> samples.add(Fixtures.sample(
                "node-" + name(pod),
                "GPU-" + pod,
                null,
                NS,
                name(pod) + "-0",
                Instant.ofEpochMilli(t0 + minute * 60_000L),
                u))));
        samples.sort(Comparator.comparing(GpuScrape::time));
        Set<String> expected = oracle();

        harness.send(samples);

        await().atMost(Duration.ofSeconds(60)).until(() -> trace.entrySet().stream()
                .allMatch(e -> harness.windows(NS + "/InferenceService/" + name(e.getKey()))
                        .map(w -> w.lastSampleMillis() == t0 + e.getValue().lastKey() * 60_000L)
                        .orElse(false)));
        // The last events commit with the last samples: give the reader one commit interval to see them.
        await().atMost(Duration.ofSeconds(10)).until(() -> pipeline(t0).size() >= expected.size());
        assertThat(expected).hasSizeGreaterThanOrEqualTo(4);
        assertThat(pipeline(t0)).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static Set<String> pipeline(long t0) {
        Set<String> reclaims = new TreeSet<>();
        for (String pod : trace.keySet()) {
            for (ReclaimEvent.IdleDetected idle :
                    harness.eventsOf(NS + "/InferenceService/" + name(pod), ReclaimEvent.IdleDetected.class)) {
                long minute = (idle.idleSince().toEpochMilli() - t0) / 60_000 + WINDOW - 1;
                reclaims.add(name(pod) + "@" + minute);
            }
        }
        return reclaims;
    }
}
