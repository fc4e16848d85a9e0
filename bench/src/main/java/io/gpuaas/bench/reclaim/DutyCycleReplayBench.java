package io.gpuaas.bench.reclaim;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Replays {@code gpu-duty-cycle-dev.csv} (each pod a serverless KServe predictor with one GPU, one sample a minute)
 * through the real reclaim pipeline (Kafka topic, exactly-once Streams, the intent applier and scaler against an
 * in-memory API server) and compares every reclaim decision (IdleDetected) with {@link ReplayOracle}, computed
 * straight from the CSV. Days of event time pass in seconds, so the applier (wall-clock time) finds most intents
 * already withdrawn; the bench checks that every decision ends in exactly one outcome and logs how they split.
 *
 * <p>Usage: {@code DutyCycleReplayBench --trace <csv> [--windows 5,15,30,60]} (window minutes). Prints Markdown.
 */
public final class DutyCycleReplayBench {

    private static final double THRESHOLD = 0.05;
    private static final double COVERAGE = 0.9;

    private DutyCycleReplayBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        DutyCycleTrace trace = DutyCycleTrace.load(Path.of(opts.text("trace")
                .orElseThrow(() -> new IllegalArgumentException("--trace <gpu-duty-cycle csv> is required"))));
        int[] windows = java.util.Arrays.stream(
                        opts.text("windows", "5,15,30,60").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        System.out.printf(
                Locale.ROOT,
                "trace: %d pods, %d samples, %.2f pod-days%n%n",
                trace.pods().size(),
                trace.samples(),
                trace.podDays());
        List<String> rows = new ArrayList<>();
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                KubernetesApi api = KubernetesApi.start()) {
            for (int w : windows) {
                rows.add(row(trace, w, broker, api));
            }
        }
        // The table is printed in one piece at the end: the suite reads it from output the broker's and the
        // clients' logs are interleaved with.
        System.out.println("| window | oracle reclaims | pipeline reclaims | matched | rejected by oracle | missed "
                + "| reclaimed GPU-h (pipeline / oracle) | share of pod-time | reclaims per pod-day | replay s |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        System.exit(0);
    }

    private static String row(DutyCycleTrace trace, int window, EmbeddedKafka broker, KubernetesApi api)
            throws Exception {
        List<ReplayOracle.Reclaim> oracle = ReplayOracle.reclaims(trace, window, THRESHOLD, COVERAGE);
        IdlePolicy policy = new IdlePolicy(
                THRESHOLD, Duration.ofMinutes(window), Duration.ofMinutes(1), COVERAGE, Duration.ZERO, true);
        long started = System.nanoTime();
        Set<String> pipeline;
        try (ReclaimRig rig = new ReclaimRig(broker, api, policy, Mode.DIRECT)) {
            String ns = "replay-" + window;
            Map<String, String> podOf = new HashMap<>();
            List<String> names = new ArrayList<>();
            for (DutyCycleTrace.Pod pod : trace.pods()) {
                String name = "p" + pod.id().substring(0, 12);
                names.add(name);
                podOf.put(name, pod.id());
            }
            rig.createInferenceServices(ns, names, 1);
            rig.startPipeline("replay-" + window + "-" + System.nanoTime());
            produce(rig, trace, ns);
            rig.awaitWindowSamples(trace.samples(), Duration.ofMinutes(10));
            pipeline = idleWindows(rig, podOf, window);
            // The stream decides; the applier acts later, in wall-clock time, while the replay runs days of event
            // time in seconds: an intent whose workload turned busy before the applier got to it is withdrawn
            // (ReclaimSkipped BUSY_AGAIN). Every idle window must end in exactly one of the two outcomes.
            Outcomes outcomes = awaitOutcomes(rig, pipeline.size(), Duration.ofMinutes(2));
            if (outcomes.reclaimed() + outcomes.withdrawn() != pipeline.size()) {
                throw new IllegalStateException(outcomes.reclaimed() + " Reclaimed and " + outcomes.withdrawn()
                        + " withdrawn for " + pipeline.size() + " idle windows");
            }
            System.err.printf(
                    Locale.ROOT,
                    "window %d min: %d idle windows, %d reclaimed, %d withdrawn before the applier got to them%n",
                    window,
                    pipeline.size(),
                    outcomes.reclaimed(),
                    outcomes.withdrawn());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return compare(trace, window, oracle, pipeline, seconds);
    }

    private record Outcomes(int reclaimed, int withdrawn) {}

    /** The stream's decisions: one {@code pod@minute the window closed} per IdleDetected. */
    private static Set<String> idleWindows(ReclaimRig rig, Map<String, String> podOf, int window)
            throws InterruptedException {
        Thread.sleep(1_000);
        Set<String> windows = new HashSet<>();
        for (ReclaimEvent e : rig.events) {
            if (e instanceof ReclaimEvent.IdleDetected idle) {
                windows.add(podOf.get(e.workload().name()) + "@" + (minuteOf(idle.idleSince()) + window - 1));
            }
        }
        return windows;
    }

    /** Waits until the applier has an outcome for {@code expected} intents (or the timeout passes). */
    private static Outcomes awaitOutcomes(ReclaimRig rig, int expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            int reclaimed = 0;
            int withdrawn = 0;
            for (ReclaimEvent e : rig.events) {
                switch (e) {
                    case ReclaimEvent.Reclaimed r -> reclaimed++;
                    case ReclaimEvent.ReclaimSkipped skipped when "BUSY_AGAIN".equals(skipped.reason()) -> withdrawn++;
                    default -> {}
                }
            }
            if (reclaimed + withdrawn >= expected || System.nanoTime() > deadline) {
                return new Outcomes(reclaimed, withdrawn);
            }
            Thread.sleep(500);
        }
    }

    /** One scrape per pod and minute: each pod is its own node with one GPU, as in the trace. */
    private static void produce(ReclaimRig rig, DutyCycleTrace trace, String ns) {
        List<GpuScrape> scrapes = new ArrayList<>(trace.samples());
        for (DutyCycleTrace.Pod pod : trace.pods()) {
            String name = "p" + pod.id().substring(0, 12);
            for (int i = 0; i < pod.minutes().length; i++) {
                scrapes.add(new GpuScrape(
                        Instant.ofEpochMilli(pod.timeMillis(i)),
                        "node-" + name,
                        null,
                        List.of(new GpuScrape.Device(
                                "GPU-" + pod.id(),
                                0,
                                "trace GPU",
                                null,
                                null,
                                null,
                                ns,
                                name + "-predictor",
                                "kserve-container",
                                pod.utilization()[i],
                                "GPU_UTIL",
                                null,
                                null,
                                null))));
            }
        }
        scrapes.sort(Comparator.comparing(GpuScrape::time));
        try (KafkaProducer<String, GpuScrapeEvent> producer = rig.producer()) {
            scrapes.forEach(s -> rig.send(producer, s));
        }
    }

    private static int minuteOf(Instant t) {
        return (int) ((t.toEpochMilli() - DutyCycleTrace.T0) / DutyCycleTrace.MINUTE);
    }

    private static String compare(
            DutyCycleTrace trace, int window, List<ReplayOracle.Reclaim> oracle, Set<String> pipeline, double seconds) {
        Set<String> expected = new HashSet<>();
        Map<String, DutyCycleTrace.Pod> pods = new HashMap<>();
        trace.pods().forEach(p -> pods.put(p.id(), p));
        long oracleMinutes = 0;
        for (ReplayOracle.Reclaim r : oracle) {
            expected.add(r.pod() + "@" + r.atMinute());
            oracleMinutes += r.minutes();
        }
        long pipelineMinutes = 0;
        for (String key : pipeline) {
            String pod = key.substring(0, key.indexOf('@'));
            int at = Integer.parseInt(key.substring(key.indexOf('@') + 1));
            pipelineMinutes += ReplayOracle.demandReturns(pods.get(pod), at, THRESHOLD) - at;
        }
        long matched = pipeline.stream().filter(expected::contains).count();
        long rejected = pipeline.size() - matched;
        long missed = expected.size() - matched;
        double podMinutes = trace.podDays() * 24 * 60;
        return String.format(
                Locale.ROOT,
                "| %d min | %d | %d | %d | %d | %d | %.1f / %.1f | %.1f%% | %.2f | %.0f |",
                window,
                expected.size(),
                pipeline.size(),
                matched,
                rejected,
                missed,
                pipelineMinutes / 60.0,
                oracleMinutes / 60.0,
                100.0 * pipelineMinutes / podMinutes,
                pipeline.size() / trace.podDays(),
                seconds);
    }
}
