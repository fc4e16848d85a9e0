package io.gpuaas.bench.metrics;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.metrics.MetricsGatewayApplication;
import io.gpuaas.metrics.kafka.GpuSamplePublisher;
import io.gpuaas.metrics.kafka.GpuSampleSerializer;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * metrics-gateway ingestion throughput: dcgm-exporter text parsed into GpuSamples and published to a real
 * broker with the service's own parser, publisher, serializer and idempotent acks=all producer settings,
 * beside a raw producer (same producer settings) sending pre-serialized samples of the same size and keys in the
 * same run, without and with the gateway's CloudEvents headers, and the per-round ratio to the raw producer.
 *
 * <p>Usage: {@code IngestBenchmark [--scrape ../shared/data/dcgm-exporter-h100x8.prom] [--gpus 10000]
 * [--scrapes 10] [--rounds 5] [--threads 2] [--bootstrap host:port] [--producer key=value,...]}
 */
public final class IngestBenchmark {

    private IngestBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        Path scrape = Path.of(opts.getOrDefault("scrape", "/work/shared/data/dcgm-exporter-h100x8.prom"));
        int gpus = Integer.parseInt(opts.getOrDefault("gpus", "10000"));
        int scrapes = Integer.parseInt(opts.getOrDefault("scrapes", "10"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "5"));
        int threads = Integer.parseInt(opts.getOrDefault("threads", "2"));
        FleetScrape fleet = FleetScrape.of(scrape, "gpu-node-1", 8, gpus / 8);
        EmbeddedKafka embedded = opts.containsKey("bootstrap") ? null : EmbeddedKafka.start();
        String bootstrap = embedded != null ? embedded.bootstrapServers() : opts.get("bootstrap");
        String prefix = "bench" + System.currentTimeMillis() + ".gpuaas.";
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            TopicAdmin.createAll(admin, prefix);
            awaitLeaders(admin, Topics.GPU_SAMPLES.name(prefix));
        }
        // The broker shares two busy cores with the benchmark: generous timeouts keep a slow ack from turning into
        // a retry storm that would measure the machine's load rather than the gateway.
        KafkaClients clients = new KafkaClients(new KafkaSettings(bootstrap, prefix,
                Map.of("request.timeout.ms", "120000", "delivery.timeout.ms", "300000")));
        String topic = clients.topic(Topics.GPU_SAMPLES);
        Map<String, String> producerOverrides = producerOverrides(opts.getOrDefault("producer", ""));
        try (Producer<byte[], byte[]> raw = producer(clients, "bench-raw", producerOverrides);
             GpuSamplePublisher publisher = new GpuSamplePublisher(
                     producer(clients, "metrics-gateway-gpu-samples", producerOverrides), topic,
                     new GpuSampleSerializer(MetricsGatewayApplication.SOURCE), new PublishCounters())) {
            IngestRounds run = new IngestRounds(fleet, scrapes, threads, raw, publisher,
                    new GpuSampleSerializer(MetricsGatewayApplication.SOURCE), topic);
            run.round(); // warm-up: JIT, producer metadata, broker segments
            double[] rawRate = new double[rounds];
            double[] rawHeadersRate = new double[rounds];
            double[] parseRate = new double[rounds];
            double[] publishRate = new double[rounds];
            IngestRounds.Cpu[] cpu = new IngestRounds.Cpu[rounds];
            for (int r = 0; r < rounds; r++) {
                IngestRounds.Result result = run.round();
                rawRate[r] = result.rawPerSecond();
                rawHeadersRate[r] = result.rawWithHeadersPerSecond();
                parseRate[r] = result.parsePerSecond();
                publishRate[r] = result.publishPerSecond();
                cpu[r] = result.cpu();
            }
            report(fleet, scrapes, threads, rawRate, rawHeadersRate, parseRate, publishRate);
            reportCpu(cpu);
        } finally {
            clients.close();
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    /**
     * Producing into partitions whose leader is not elected yet ends in NOT_LEADER_OR_FOLLOWER and then
     * out-of-order sequence retries on a loaded machine; the service never does this (topics exist long before).
     */
    private static void awaitLeaders(Admin admin, String topic) throws Exception {
        for (int attempt = 0; attempt < 120; attempt++) {
            var description = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get().get(topic);
            if (description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                Thread.sleep(2_000);
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("no leaders for " + topic);
    }

    /**
     * The gateway's own producer settings (kit defaults + its batch size) for both contenders, so only the work
     * before send differs; {@code --producer key=value,...} overrides them on both for tuning experiments.
     */
    private static Producer<byte[], byte[]> producer(KafkaClients clients, String clientId,
                                                     Map<String, String> overrides) {
        Map<String, Object> config = KafkaFactory.sampleProducerConfig(clients);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.putAll(overrides);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Map<String, String> producerOverrides(String spec) {
        Map<String, String> overrides = BenchOptions.pairs(spec);
        if (!overrides.isEmpty()) {
            System.out.println("producer overrides (both contenders): " + overrides);
        }
        return overrides;
    }

    private static void report(FleetScrape fleet, int scrapes, int threads, double[] raw, double[] rawHeaders,
                               double[] parse, double[] publish) {
        System.out.printf("fleet: %d nodes, %d GPUs, %.1f KiB of exporter text per fleet scrape; %d fleet scrapes"
                + " per round, %d threads%n", fleet.nodes(), fleet.gpus(), fleet.bytes() / 1024.0, scrapes, threads);
        System.out.println("| measurement | samples/s (median, min, max over rounds) |");
        System.out.println("|---|---|");
        System.out.println("| raw producer: the same devices' JSON pre-serialized, same keys, no headers (baseline) | "
                + Stats.of(raw).format("/s", "%,.0f") + " |");
        System.out.println("| raw producer + the gateway's CloudEvents headers (fresh ce_id/ce_time per record) | "
                + Stats.of(rawHeaders).format("/s", "%,.0f") + " |");
        System.out.println("| parse only (DcgmTextParser, no Kafka) | " + Stats.of(parse).format("/s", "%,.0f") + " |");
        System.out.println("| parsed and published (parser + CloudEvents serializer + idempotent acks=all, until acked) | "
                + Stats.of(publish).format("/s", "%,.0f") + " |");
        System.out.printf("parsed and published / raw producer: %.2f (median of per-round ratios %.2f)%n",
                median(publish) / median(raw), medianRatio(publish, raw));
    }

    /** A second table (its own column, so the suite's samples/s parser never mistakes it for rates). */
    private static void reportCpu(IngestRounds.Cpu[] cpu) {
        System.out.println();
        System.out.println("| contender | JVM CPU µs per sample, broker and GC included (median, min, max over rounds) |");
        System.out.println("|---|---|");
        System.out.println("| raw producer | " + cpuStats(cpu, IngestRounds.Cpu::rawMicros) + " |");
        System.out.println("| raw producer + CloudEvents headers | " + cpuStats(cpu, IngestRounds.Cpu::rawWithHeadersMicros) + " |");
        System.out.println("| parse only | " + cpuStats(cpu, IngestRounds.Cpu::parseMicros) + " |");
        System.out.println("| parsed and published | " + cpuStats(cpu, IngestRounds.Cpu::publishMicros) + " |");
    }

    private static String cpuStats(IngestRounds.Cpu[] cpu, java.util.function.ToDoubleFunction<IngestRounds.Cpu> field) {
        return Stats.of(java.util.Arrays.stream(cpu).mapToDouble(field).toArray()).format("µs", "%.2f");
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Rounds are paired (same round, seconds apart), so the per-round ratio cancels most of a shared machine's noise. */
    private static double medianRatio(double[] numerator, double[] denominator) {
        double[] ratios = new double[numerator.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = numerator[i] / denominator[i];
        }
        return median(ratios);
    }

}
