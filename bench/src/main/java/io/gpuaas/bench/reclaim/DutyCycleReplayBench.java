package io.gpuaas.bench.reclaim;

import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleEvent;
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
 * through the real reclaim pipeline (Kafka topic, exactly-once Streams, scaler against an in-memory API server)
 * and compares every reclaim with {@link ReplayOracle}, computed straight from the CSV.
 *
 * <p>Usage: {@code DutyCycleReplayBench <csv> [windowMinutes,...]} (default 5,15,30,60). Prints Markdown.
 */
public final class DutyCycleReplayBench {

    private static final double THRESHOLD = 0.05;
    private static final double COVERAGE = 0.9;

    private DutyCycleReplayBench() {}

    public static void main(String[] args) throws Exception {
        DutyCycleTrace trace = DutyCycleTrace.load(Path.of(args[0]));
        int[] windows = args.length > 1
                ? java.util.Arrays.stream(args[1].split(","))
                        .mapToInt(Integer::parseInt)
                        .toArray()
                : new int[] {5, 15, 30, 60};
        System.out.printf(
                Locale.ROOT,
                "trace: %d pods, %d samples, %.2f pod-days%n%n",
                trace.pods().size(),
                trace.samples(),
                trace.podDays());
        System.out.println("| window | oracle reclaims | pipeline reclaims | matched | rejected by oracle | missed "
                + "| reclaimed GPU-h (pipeline / oracle) | share of pod-time | reclaims per pod-day | replay s |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                KubernetesApi api = KubernetesApi.start()) {
            for (int w : windows) {
                System.out.println(row(trace, w, broker, api));
            }
        }
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
            Thread.sleep(1_000);
            pipeline = new HashSet<>();
            int reclaimed = 0;
            for (ReclaimEvent e : rig.events) {
                switch (e) {
                    case ReclaimEvent.IdleDetected idle ->
                        pipeline.add(podOf.get(e.workload().name()) + "@" + (minuteOf(idle.idleSince()) + window - 1));
                    case ReclaimEvent.Reclaimed r -> reclaimed++;
                    default -> {}
                }
            }
            if (reclaimed != pipeline.size()) {
                throw new IllegalStateException(
                        reclaimed + " Reclaimed events for " + pipeline.size() + " idle windows");
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return compare(trace, window, oracle, pipeline, seconds);
    }

    private static void produce(ReclaimRig rig, DutyCycleTrace trace, String ns) {
        List<GpuSample> samples = new ArrayList<>(trace.samples());
        for (DutyCycleTrace.Pod pod : trace.pods()) {
            String name = "p" + pod.id().substring(0, 12);
            for (int i = 0; i < pod.minutes().length; i++) {
                samples.add(new GpuSample(
                        Instant.ofEpochMilli(pod.timeMillis(i)),
                        "node-" + name,
                        "GPU-" + pod.id(),
                        0,
                        "trace GPU",
                        null,
                        null,
                        ns,
                        name + "-predictor",
                        "kserve-container",
                        pod.utilization()[i],
                        "GPU_UTIL",
                        null,
                        null,
                        null));
            }
        }
        samples.sort(Comparator.comparing(GpuSample::time));
        try (KafkaProducer<String, GpuSampleEvent> producer = rig.producer()) {
            samples.forEach(s -> rig.send(producer, s));
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
