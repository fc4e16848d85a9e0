package io.gpuaas.bench.metrics;

import static io.gpuaas.events.KafkaPrincipal.METRICS_GATEWAY;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.metrics.MetricsGatewayApplication;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * metrics-gateway ingestion throughput: dcgm-exporter text parsed into GpuScrapes (one record per node scrape) and
 * published to a real broker with the service's own parser, publisher, codec and idempotent acks=all producer
 * settings, beside a raw producer (same producer settings) sending the same records pre-serialized, same keys, in the
 * same run, without and with the gateway's CloudEvents headers, and the per-round ratio to the raw producer. Rates
 * and CPU are per device sample.
 * Both run on two brokers in this JVM, rounds interleaved: one with authentication and ACLs as in production
 * (metrics-gateway's own user), one without ({@code auth off:} rows); {@code --security on|off} keeps one.
 *
 * <p>Usage: {@code IngestBenchmark [--scrape ../shared/data/dcgm-exporter-h100x8.prom] [--gpus 10000]
 * [--scrapes 10] [--rounds 5] [--threads 2] [--bootstrap host:port] [--producer key=value,...]
 * [--security both]} ({@code --bootstrap}: an external broker without security instead)
 */
public final class IngestBenchmark {

    private IngestBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        Path scrape = opts.path("scrape", "/work/shared/data/dcgm-exporter-h100x8.prom");
        int gpus = opts.integer("gpus", 10_000);
        int scrapes = opts.integer("scrapes", 10);
        int rounds = opts.integer("rounds", 5);
        int threads = opts.integer("threads", 2);
        FleetScrape fleet = FleetScrape.of(scrape, "gpu-node-1", 8, gpus / 8);
        Map<String, String> producerOverrides = producerOverrides(opts.text("producer", ""));
        List<Side> sides = new ArrayList<>();
        try {
            if (opts.has("bootstrap")) {
                sides.add(Side.open(
                        "", null, opts.text("bootstrap").orElseThrow(), fleet, scrapes, threads, producerOverrides));
            } else {
                for (boolean secured : BenchOptions.securityVariants(opts.text("security", "both"))) {
                    sides.add(Side.start(secured, fleet, scrapes, threads, producerOverrides));
                }
            }
            for (Side side : sides) {
                side.rounds().round(); // warm-up: JIT, producer metadata, broker segments
            }
            // Interleaved, so load from elsewhere on a shared machine falls on both brokers alike.
            for (int r = 0; r < rounds; r++) {
                for (Side side : sides) {
                    side.results().add(side.rounds().round());
                }
            }
            report(fleet, scrapes, threads, sides);
            reportCpu(sides);
        } finally {
            sides.forEach(Side::close);
        }
    }

    /**
     * The contenders on one broker. Secured: SASL with metrics-gateway's own SCRAM-SHA-512 user and exactly its
     * ACLs under the StandardAuthorizer, as production runs; its rows keep the plain names. Open: PLAINTEXT and no
     * authorizer, its rows labelled {@value #OPEN}, to show what authentication and authorization cost.
     */
    private record Side(
            String label,
            EmbeddedKafka broker,
            KafkaClients clients,
            Producer<byte[], byte[]> raw,
            GpuScrapePublisher publisher,
            IngestRounds rounds,
            List<IngestRounds.Result> results) {

        static Side start(boolean secured, FleetScrape fleet, int scrapes, int threads, Map<String, String> overrides)
                throws Exception {
            EmbeddedKafka broker = secured
                    ? EmbeddedKafka.start()
                    : EmbeddedKafka.builder().withoutSecurity().start();
            return open(secured ? "" : OPEN, broker, broker.bootstrapServers(), fleet, scrapes, threads, overrides);
        }

        static Side open(
                String label,
                EmbeddedKafka broker,
                String bootstrap,
                FleetScrape fleet,
                int scrapes,
                int threads,
                Map<String, String> overrides)
                throws Exception {
            String prefix = "bench" + System.currentTimeMillis() + ".gpuaas.";
            Map<String, String> settings = new HashMap<>();
            if (broker != null) {
                try (Admin admin = broker.admin()) {
                    TopicAdmin.createAll(admin, prefix);
                    awaitLeaders(admin, Topics.GPU_SAMPLES.name(prefix));
                }
                settings.putAll(broker.serviceCredentials(
                        METRICS_GATEWAY.userName(), KafkaAccess.acls(METRICS_GATEWAY, prefix)));
            } else {
                try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                    TopicAdmin.createAll(admin, prefix);
                    awaitLeaders(admin, Topics.GPU_SAMPLES.name(prefix));
                }
            }
            // The broker shares two busy cores with the benchmark: generous timeouts keep a slow ack from turning
            // into a retry storm that would measure the machine's load rather than the gateway.
            settings.putAll(Map.of("request.timeout.ms", "120000", "delivery.timeout.ms", "300000"));
            KafkaClients clients = new KafkaClients(new KafkaSettings(bootstrap, prefix, settings));
            String topic = clients.topic(Topics.GPU_SAMPLES);
            Producer<byte[], byte[]> raw = producer(clients, "bench-raw", overrides);
            GpuScrapePublisher publisher = new GpuScrapePublisher(
                    producer(clients, "metrics-gateway-gpu-samples", overrides), topic, codec(), new PublishCounters());
            IngestRounds rounds = new IngestRounds(fleet, scrapes, threads, raw, publisher, codec(), topic);
            return new Side(label, broker, clients, raw, publisher, rounds, new ArrayList<>());
        }

        double[] rates(java.util.function.ToDoubleFunction<IngestRounds.Result> field) {
            return results.stream().mapToDouble(field).toArray();
        }

        void close() {
            raw.close();
            publisher.close();
            clients.close();
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** The label prefix of the rows measured without authentication. */
    static final String OPEN = "auth off: ";

    /**
     * Producing into partitions whose leader is not elected yet ends in NOT_LEADER_OR_FOLLOWER and then
     * out-of-order sequence retries on a loaded machine; the service never does this (topics exist long before).
     */
    private static void awaitLeaders(Admin admin, String topic) throws Exception {
        for (int attempt = 0; attempt < 120; attempt++) {
            var description = admin.describeTopics(java.util.List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic);
            if (description.partitions().stream()
                    .allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
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
    private static Producer<byte[], byte[]> producer(
            KafkaClients clients, String clientId, Map<String, String> overrides) {
        Map<String, Object> config = KafkaFactory.sampleProducerConfig(clients);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.putAll(overrides);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The topic's codec with the gateway's {@code ce_source}, as the service builds it. */
    private static GpuScrapeCodec codec() {
        return new GpuScrapeCodec(CloudEventHeaders.of(MetricsGatewayApplication.SOURCE));
    }

    private static Map<String, String> producerOverrides(String spec) {
        Map<String, String> overrides = BenchOptions.pairs(spec);
        if (!overrides.isEmpty()) {
            System.out.println("producer overrides (both contenders): " + overrides);
        }
        return overrides;
    }

    private static void report(FleetScrape fleet, int scrapes, int threads, List<Side> sides) {
        System.out.printf(
                "fleet: %d nodes, %d GPUs, %.1f KiB of exporter text per fleet scrape; %d fleet scrapes"
                        + " per round, %d threads%n",
                fleet.nodes(), fleet.gpus(), fleet.bytes() / 1024.0, scrapes, threads);
        System.out.println("| measurement | samples/s (median, min, max over rounds) |");
        System.out.println("|---|---|");
        for (Side side : sides) {
            System.out.println("| " + side.label() + "raw producer: the same scrape records pre-serialized, same keys, "
                    + "no headers (baseline) | "
                    + Stats.of(side.rates(IngestRounds.Result::rawPerSecond)).format("/s", "%,.0f") + " |");
            System.out.println("| " + side.label() + "raw producer + the gateway's CloudEvents headers (fresh "
                    + "ce_id/ce_time per record) | "
                    + Stats.of(side.rates(IngestRounds.Result::rawWithHeadersPerSecond))
                            .format("/s", "%,.0f") + " |");
            System.out.println("| " + side.label() + "parse only (DcgmTextParser, no Kafka) | "
                    + Stats.of(side.rates(IngestRounds.Result::parsePerSecond)).format("/s", "%,.0f") + " |");
            System.out.println("| " + side.label() + "parsed and published (parser + scrape codec + "
                    + "idempotent acks=all, until acked) | "
                    + Stats.of(side.rates(IngestRounds.Result::publishPerSecond))
                            .format("/s", "%,.0f") + " |");
        }
        for (Side side : sides) {
            double[] publish = side.rates(IngestRounds.Result::publishPerSecond);
            double[] raw = side.rates(IngestRounds.Result::rawPerSecond);
            System.out.printf(
                    "%sparsed and published / raw producer: %.2f (median of per-round ratios %.2f)%n",
                    side.label(), median(publish) / median(raw), medianRatio(publish, raw));
        }
        if (sides.size() == 2) {
            double[] on = sides.get(0).rates(IngestRounds.Result::publishPerSecond);
            double[] off = sides.get(1).rates(IngestRounds.Result::publishPerSecond);
            System.out.printf(
                    "parsed and published, authentication on / off: %.2f (median of per-round ratios %.2f)%n",
                    median(on) / median(off), medianRatio(on, off));
        }
    }

    /** A second table (its own column, so the suite's samples/s parser never mistakes it for rates). */
    private static void reportCpu(List<Side> sides) {
        System.out.println();
        System.out.println(
                "| contender | JVM CPU µs per sample, broker and GC included (median, min, max over rounds) |");
        System.out.println("|---|---|");
        for (Side side : sides) {
            IngestRounds.Cpu[] cpu =
                    side.results().stream().map(IngestRounds.Result::cpu).toArray(IngestRounds.Cpu[]::new);
            System.out.println(
                    "| " + side.label() + "raw producer | " + cpuStats(cpu, IngestRounds.Cpu::rawMicros) + " |");
            System.out.println("| " + side.label() + "raw producer + CloudEvents headers | "
                    + cpuStats(cpu, IngestRounds.Cpu::rawWithHeadersMicros) + " |");
            System.out.println(
                    "| " + side.label() + "parse only | " + cpuStats(cpu, IngestRounds.Cpu::parseMicros) + " |");
            System.out.println("| " + side.label() + "parsed and published | "
                    + cpuStats(cpu, IngestRounds.Cpu::publishMicros) + " |");
        }
    }

    private static String cpuStats(
            IngestRounds.Cpu[] cpu, java.util.function.ToDoubleFunction<IngestRounds.Cpu> field) {
        return Stats.of(java.util.Arrays.stream(cpu).mapToDouble(field).toArray())
                .format("µs", "%.2f");
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
