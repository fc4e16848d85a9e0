package io.gpuaas.bench.metrics;

import static io.gpuaas.events.KafkaPrincipal.METRICS_GATEWAY;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.events.KafkaAccess;
import io.gpuaas.events.TopicAdmin;
import io.gpuaas.kit.config.KafkaSettings;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.remotewrite.LabelSlots;
import io.gpuaas.metrics.remotewrite.RemoteWriteMetrics;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * metrics-gateway's remote-write ingest: the requests a Prometheus scraping a simulated fleet would send
 * ({@link RemoteWriteRequests}), each handled as {@code POST /api/v1/write} handles it once authenticated (snappy,
 * protobuf, DCGM mapping to GpuScrapes, encoding, published to a real broker with authentication and ACLs as
 * metrics-gateway's own user, answered only once acknowledged), beside a bare snappy + protobuf decode of the same
 * requests with the standard libraries ({@link BareDecode}) in the same rounds. {@code --senders} requests are in
 * flight at a time (Prometheus' shards), for both contenders. HTTP and the token check are not measured (one JWT
 * check per request of up to 2,000 series). Rates are per series sample (every series Prometheus sends) and per
 * device sample (GPU readings published); a second table gives the whole JVM's CPU per device sample.
 *
 * <p>Usage: {@code RemoteWriteBenchmark [--scrape /work/shared/data/dcgm-exporter-h100x8.prom] [--gpus 10000]
 * [--scrapes 4] [--rounds 5] [--senders 4] [--samples-per-send 2000]}
 */
public final class RemoteWriteBenchmark {

    private RemoteWriteBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        Path scrape = opts.path("scrape", "/work/shared/data/dcgm-exporter-h100x8.prom");
        int gpus = opts.integer("gpus", 10_000);
        int scrapes = opts.integer("scrapes", 4);
        int rounds = opts.integer("rounds", 5);
        int senders = opts.integer("senders", 4);
        int perSend = opts.integer("samples-per-send", 2000);
        FleetScrape fleet = FleetScrape.of(scrape, "gpu-node-1", 8, gpus / 8);
        RemoteWriteRequests requests = RemoteWriteRequests.of(fleet, scrapes, perSend);
        System.out.printf(
                "fleet: %d nodes, %d GPUs; %d fleet scrapes per round in %d requests of at most %d series"
                        + " (%.1f MiB snappy, %.1f MiB decoded), %d senders; heap %s%n",
                fleet.nodes(),
                fleet.gpus(),
                scrapes,
                requests.bodies().size(),
                perSend,
                requests.compressedBytes() / 1048576.0,
                requests.rawBytes() / 1048576.0,
                senders,
                JvmActivity.heapFlags());
        try (EmbeddedKafka broker = EmbeddedKafka.start()) {
            String prefix = "rwbench" + System.currentTimeMillis() + ".gpuaas.";
            try (Admin admin = broker.admin()) {
                TopicAdmin.createAll(admin, prefix);
            }
            Map<String, String> settings = new HashMap<>(
                    broker.serviceCredentials(METRICS_GATEWAY.userName(), KafkaAccess.acls(METRICS_GATEWAY, prefix)));
            // The broker shares two busy cores with the benchmark: a slow ack must not become a retry storm.
            settings.putAll(Map.of("request.timeout.ms", "120000", "delivery.timeout.ms", "300000"));
            try (KafkaClients clients =
                            new KafkaClients(new KafkaSettings(broker.bootstrapServers(), prefix, settings));
                    GpuScrapePublisher publisher = KafkaFactory.scrapePublisher(clients, new PublishCounters())) {
                RemoteWriteReceiver receiver = new RemoteWriteReceiver(
                        new LabelSlots(List.of("node", "kubernetes_node"), false),
                        16 * 1024 * 1024,
                        Duration.ofMinutes(5),
                        publisher::publishAll,
                        new RemoteWriteMetrics(new PrometheusRegistry()));
                run(new RemoteWriteRounds(requests.bodies(), senders, receiver), rounds);
            }
        }
    }

    /** Warm-up rounds until the JIT settles (at most 5, printed and discarded), then the measured rounds. */
    private static void run(RemoteWriteRounds contenders, int rounds) throws InterruptedException {
        List<RemoteWriteRounds.Result> warmUp = new ArrayList<>();
        for (int w = 0; w < 5; w++) {
            JvmActivity before = JvmActivity.now();
            long start = System.nanoTime();
            warmUp.add(contenders.round());
            if (JvmActivity.since(before).settled((System.nanoTime() - start) / 1e9)) {
                break;
            }
        }
        List<RemoteWriteRounds.Result> measured = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            measured.add(contenders.round());
        }
        RemoteWriteReport.print(warmUp, measured);
    }
}
