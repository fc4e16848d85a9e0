package io.gpuaas.bench.reclaim;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.bench.suite.WarmUp;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.reclaim.stream.ReclaimPipeline;
import io.gpuaas.testing.k8s.KubernetesApi;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * In one run on one broker: (1) device samples per second through the reclaim pipeline beside a raw consumer that
 * only reads and decodes the same topic (one record per node scrape of {@code gpusPerWorkload} GPUs); (2) latency from the sample that closes an idle window to the scale-down
 * written to the API server.
 *
 * <p>Usage: {@code ReclaimThroughputBench [--samples 400000] [--workloads 1250] [--gpus-per-workload 8]
 * [--repeats 3] [--stream-threads 2] [--commit-interval-ms 100] [--warmup-rounds 5]}: stream threads and commit
 * interval default to what the service runs with; up to {@code warmUpRounds} discarded rounds (until the JIT has settled) come before the measured
 * runs, printed as warm-up rows.
 */
public final class ReclaimThroughputBench {

    private ReclaimThroughputBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int samples = opts.integer("samples", 400_000);
        int workloads = opts.integer("workloads", 1_250);
        int gpus = opts.integer("gpus-per-workload", 8);
        int repeats = opts.integer("repeats", 3);
        int warmUps = opts.integer("warmup-rounds", 5);
        Map<String, Object> overrides = Map.of(
                "num.stream.threads", opts.integer("stream-threads", ReclaimPipeline.DEFAULT_STREAM_THREADS),
                "commit.interval.ms", opts.integer("commit-interval-ms", 100));
        System.out.println("pipeline settings: " + overrides + "; JVM " + JvmActivity.heapFlags());
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                KubernetesApi api = KubernetesApi.start()) {
            throughput(broker, api, samples, workloads, gpus, repeats, warmUps, overrides);
            latency(broker, api, 200, repeats, overrides);
        }
        System.exit(0);
    }

    private static void throughput(
            EmbeddedKafka broker,
            KubernetesApi api,
            int samples,
            int workloads,
            int gpus,
            int repeats,
            int warmUps,
            Map<String, Object> overrides)
            throws Exception {
        IdlePolicy policy = IdlePolicy.defaults().withWarmUp(Duration.ZERO);
        try (ReclaimRig rig = new ReclaimRig(broker, api, policy, Mode.DIRECT)) {
            List<String> names = new ArrayList<>();
            for (int w = 0; w < workloads; w++) {
                names.add("tp-" + w);
            }
            rig.createInferenceServices("bench-tp", names, gpus);
            int devices = workloads * gpus;
            long t0 = System.currentTimeMillis() + 60_000;
            long produceStart = System.nanoTime();
            // One record per node scrape, as metrics-gateway publishes: each workload's predictor has a node of its
            // own, every GPU of it in the scrape. Rounded down to whole scrapes.
            samples = samples / gpus * gpus;
            try (KafkaProducer<String, GpuScrapeEvent> producer = rig.producer()) {
                for (int i = 0; i < samples / gpus; i++) {
                    int workload = i % workloads;
                    int round = i / workloads;
                    String name = names.get(workload);
                    // Half the workloads idle, half busy: both paths of the window code are exercised.
                    double util = workload % 2 == 0 ? 0.0 : 0.6;
                    rig.send(producer, scrape(Instant.ofEpochMilli(t0 + round * 1_000L), "bench-tp", name, gpus, util));
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "produced %d samples of %d devices (%d per record) in %.1f s%n",
                    samples,
                    devices,
                    gpus,
                    (System.nanoTime() - produceStart) / 1e9);
            System.out.println("| run | raw consumer samples/s | pipeline samples/s | raw CPU µs/sample "
                    + "| pipeline CPU µs/sample | JIT ms | GC ms |");
            System.out.println("|---|---|---|---|---|---|---|");
            String warmUp = warmUp(rig, samples, warmUps, overrides);
            for (int run = 1; run <= repeats; run++) {
                round(rig, samples, Integer.toString(run), overrides);
            }
            System.out.println();
            System.out.println(warmUp);
        }
    }

    /**
     * Rounds like the measured ones, until the JIT compiled for under a tenth of a round (at most {@code max}),
     * printed as discarded rows. Without them run 1 was the JVM's first read of the topic: its raw consumer and its
     * pipeline ran at half the speed of runs 2 and 3 while the C2 compiler was busy for the whole run (JFR: ~200 C2
     * compilations of the fetch, decode and time-parsing paths in raw run 1, about 15 in raw runs 2 and 3).
     *
     * @return the line saying how the warm-up ended
     */
    private static String warmUp(ReclaimRig rig, int samples, int max, Map<String, Object> overrides) throws Exception {
        return WarmUp.run(max, round -> round(rig, samples, "warm-up (discarded) " + round, overrides))
                .describe("a raw read and a pipeline pass like the measured runs");
    }

    /** One raw read of the topic and one pipeline pass over it, printed as a row; returns the JVM's activity. */
    private static JvmActivity round(ReclaimRig rig, int samples, String label, Map<String, Object> overrides)
            throws Exception {
        JvmActivity before = JvmActivity.now();
        Pass raw = rawConsumer(rig, samples);
        Pass pipeline = pipeline(rig, samples, label.replaceAll("\\W+", "-"), overrides);
        JvmActivity jvm = JvmActivity.since(before);
        System.out.printf(
                Locale.ROOT,
                "| %s | %,.0f | %,.0f | %.1f | %.1f | %d | %d |%n",
                label,
                raw.perSecond(),
                pipeline.perSecond(),
                raw.cpuMicrosPerSample(),
                pipeline.cpuMicrosPerSample(),
                jvm.jitMillis(),
                jvm.gcMillis());
        return jvm;
    }

    /**
     * One timed pass over the samples.
     *
     * @param cpuNanos the whole JVM's CPU time during the pass (broker, clients, JIT and GC included): it moves much
     *                 less than the rate when other processes share the cores, so it is what compares two versions
     */
    private record Pass(int samples, long wallNanos, long cpuNanos) {

        double perSecond() {
            return samples / (wallNanos / 1e9);
        }

        double cpuMicrosPerSample() {
            return cpuNanos / 1e3 / samples;
        }
    }

    private static Pass rawConsumer(ReclaimRig rig, int samples) {
        Map<String, Object> config = new HashMap<>(rig.consumerConfig());
        try (KafkaConsumer<String, GpuScrapeEvent> consumer = new KafkaConsumer<>(
                config,
                new StringDeserializer(),
                Topics.GPU_SAMPLES.valueSerde().deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.GPU_SAMPLES.name(rig.prefix)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long start = System.nanoTime();
            long cpu = JvmActivity.processCpuNanos();
            int read = 0;
            while (read < samples) {
                for (var record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.value() instanceof GpuScrape scrape) {
                        read += scrape.devices().size();
                    }
                }
            }
            return new Pass(read, System.nanoTime() - start, JvmActivity.processCpuNanos() - cpu);
        }
    }

    /**
     * A fresh application id re-reads the whole topic; timed from the first sample its attribution step keys by
     * workload to the last its window step applies, so both steps' work is inside the timing. (Timing from the first
     * applied sample, as this bench once did, left out the head start of the first step while the window tasks were
     * still being assigned, and let a pass look faster than the raw consumer.)
     */
    private static Pass pipeline(ReclaimRig rig, int samples, String run, Map<String, Object> overrides)
            throws Exception {
        long before = rig.metrics.attributedSamples();
        long applied = rig.metrics.windowSamples();
        rig.startPipeline("tp-" + run + "-" + System.nanoTime(), overrides);
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (rig.metrics.attributedSamples() == before && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        long start = System.nanoTime();
        long cpu = JvmActivity.processCpuNanos();
        rig.awaitWindowSamples(applied + samples, Duration.ofMinutes(10));
        Pass pass = new Pass(samples, System.nanoTime() - start, JvmActivity.processCpuNanos() - cpu);
        rig.stopPipeline();
        return pass;
    }

    private static void latency(
            EmbeddedKafka broker, KubernetesApi api, int workloads, int repeats, Map<String, Object> overrides)
            throws Exception {
        long slot = 200;
        IdlePolicy policy =
                new IdlePolicy(0.05, Duration.ofSeconds(3), Duration.ofMillis(slot), 0.9, Duration.ZERO, true);
        Histogram all = new Histogram(60_000, 3);
        System.out.println();
        System.out.println("| run | reclaims | p50 ms | p99 ms | max ms |");
        System.out.println("|---|---|---|---|---|");
        try (ReclaimRig rig = new ReclaimRig(broker, api, policy, Mode.DIRECT)) {
            rig.startPipeline("latency-" + System.nanoTime(), overrides);
            while (rig.state() != org.apache.kafka.streams.KafkaStreams.State.RUNNING) {
                Thread.sleep(50);
            }
            for (int run = 0; run <= repeats; run++) {
                List<String> names = new ArrayList<>();
                for (int w = 0; w < workloads; w++) {
                    names.add("lat-" + run + "-" + w);
                }
                rig.createInferenceServices("bench-lat", names, 1);
                Histogram h = liveRun(rig, names, slot, policy.slots());
                // Run 0 warms up (the first windows also pay for the stream's first assignment): shown, not in "all".
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %d | %d | %d | %d |%n",
                        run == 0 ? "warm-up (discarded)" : run,
                        h.getTotalCount(),
                        h.getValueAtPercentile(50),
                        h.getValueAtPercentile(99),
                        h.getMaxValue());
                if (run > 0) {
                    all.add(h);
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "| all | %d | %d | %d | %d |%n",
                all.getTotalCount(),
                all.getValueAtPercentile(50),
                all.getValueAtPercentile(99),
                all.getMaxValue());
    }

    /**
     * Sends one idle sample per workload on every slot boundary, in real time. Workload {@code i} starts
     * {@code i % 20} slots late, so about {@code workloads / 20} windows close per slot rather than all at once
     * (production caps scale-downs at {@code max-actions-per-minute} anyway).
     */
    private static Histogram liveRun(ReclaimRig rig, List<String> names, long slot, int slots) throws Exception {
        Map<String, String> byKey = new HashMap<>();
        names.forEach(n -> byKey.put("bench-lat/InferenceService/" + n, n));
        try (KafkaProducer<String, GpuScrapeEvent> producer = rig.producer()) {
            long first = (System.currentTimeMillis() / slot + 1) * slot;
            long end = first + slot * (slots + 25);
            while (System.currentTimeMillis() < end) {
                long boundary = (System.currentTimeMillis() / slot + 1) * slot;
                Thread.sleep(Math.max(0, boundary - System.currentTimeMillis()));
                for (int i = 0; i < names.size(); i++) {
                    String n = names.get(i);
                    if (boundary < first + (i % 20) * slot) {
                        continue;
                    }
                    rig.send(producer, scrape(Instant.ofEpochMilli(boundary), "bench-lat", n, 1, 0.0));
                }
                producer.flush();
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (rig.events.stream()
                                .filter(e -> e instanceof ReclaimEvent.Reclaimed
                                        && byKey.containsKey(e.workload().key()))
                                .count()
                        < names.size()
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Map<String, Instant> idleSince = new HashMap<>();
        Histogram h = new Histogram(60_000, 3);
        for (ReclaimEvent e : rig.events) {
            if (!byKey.containsKey(e.workload().key())) {
                continue;
            }
            switch (e) {
                case ReclaimEvent.IdleDetected idle ->
                    idleSince.put(e.workload().key(), idle.idleSince());
                case ReclaimEvent.Reclaimed r -> {
                    Instant closing = idleSince.get(e.workload().key()).plusMillis(slot * (slots - 1));
                    h.recordValue(
                            Math.max(0, Duration.between(closing, r.time()).toMillis()));
                }
                default -> {}
            }
        }
        return h;
    }

    /** A scrape of workload {@code name}'s node: {@code gpus} GPUs, all held by its predictor, all at {@code util}. */
    private static GpuScrape scrape(Instant time, String ns, String name, int gpus, double util) {
        List<GpuScrape.Device> devices = new ArrayList<>(gpus);
        for (int g = 0; g < gpus; g++) {
            devices.add(new GpuScrape.Device(
                    "GPU-" + name + "-" + g,
                    g,
                    "NVIDIA H200",
                    null,
                    null,
                    "dcgm-exporter-" + name,
                    ns,
                    name + "-predictor",
                    "main",
                    util,
                    "GR_ENGINE_ACTIVE",
                    1.0,
                    2.0,
                    3.0));
        }
        return new GpuScrape(time, "node-" + name, null, devices);
    }
}
