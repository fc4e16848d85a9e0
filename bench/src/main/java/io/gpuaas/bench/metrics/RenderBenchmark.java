package io.gpuaas.bench.metrics;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.metrics.metrics.Exposition;
import io.gpuaas.metrics.metrics.MetricsGatewayMetrics;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.projection.BookedUnits;
import io.gpuaas.metrics.projection.QueueDepth;
import io.gpuaas.metrics.projection.ReclaimState;
import io.gpuaas.metrics.projection.TenantDirectory;
import io.gpuaas.metrics.projection.TenantUsage;
import io.gpuaas.metrics.scrape.ScrapeHealth;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * {@code /metrics} render time of metrics-gateway at the design scale: 10,000 GPUs sampled for 1,000 tenants,
 * their queues, bookings, idleness signals and the scrape health of 1,250 exporters, rendered by the gateway's
 * {@link Exposition}; beside it, in the same run, the same series built as prometheus-metrics snapshots and
 * written by the library (the registry path the gateway replaced).
 *
 * <p>Usage: {@code RenderBenchmark [--gpus 10000] [--tenants 1000] [--workloads 2] [--iterations 50]}
 */
public final class RenderBenchmark {

    private RenderBenchmark() {}

    public static void main(String[] args) throws IOException {
        BenchOptions opts = BenchOptions.of(args);
        int gpus = opts.integer("gpus", 10_000);
        int tenants = opts.integer("tenants", 1000);
        int workloadsPerTenant = opts.integer("workloads", 2);
        int iterations = opts.integer("iterations", 50);
        Instant now = Instant.now();

        TenantDirectory directory = new TenantDirectory(Map.of());
        QueueDepth queues = new QueueDepth(directory);
        TenantUsage usage = new TenantUsage(directory, 0.05, Duration.ofSeconds(30), Duration.ofSeconds(30));
        BookedUnits bookings = new BookedUnits();
        ReclaimState reclaims = new ReclaimState();
        ScrapeHealth health = new ScrapeHealth();
        ScaleFleet.populate(gpus, tenants, workloadsPerTenant, now, queues, usage, bookings, reclaims, health);
        MetricsGatewayMetrics metrics = new MetricsGatewayMetrics(
                queues, usage, bookings, reclaims, health, new PublishCounters(), Clock.systemUTC());
        byte[] once = render(metrics, false);
        String text = new String(once, StandardCharsets.UTF_8);
        long series = text.lines().filter(l -> !l.startsWith("#")).count();
        ModelBaseline baseline = new ModelBaseline(text);
        PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
        for (int i = 0; i < 10; i++) {
            render(metrics, false); // warm-up
            write(writer, baseline.build());
        }
        double[] model = new double[iterations];
        double[] prometheusText = new double[iterations];
        double[] openMetrics = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            long t0 = System.nanoTime();
            write(writer, baseline.build());
            long t1 = System.nanoTime();
            render(metrics, false);
            long t2 = System.nanoTime();
            render(metrics, true);
            long t3 = System.nanoTime();
            model[i] = (t1 - t0) / 1e6;
            prometheusText[i] = (t2 - t1) / 1e6;
            openMetrics[i] = (t3 - t2) / 1e6;
        }
        System.out.printf(
                "scale: %d GPUs, %d tenants, %d series, %.0f KiB per scrape (Prometheus text 0.0.4)%n",
                gpus, tenants, series, once.length / 1024.0);
        System.out.println("| measurement | ms per /metrics render (median, min, max) |");
        System.out.println("|---|---|");
        System.out.println("| baseline: same series as prometheus-metrics snapshots + library text writer | "
                + Stats.of(model).format("ms", "%.1f") + " |");
        System.out.println("| metrics-gateway render (projections to text), Prometheus text 0.0.4 | "
                + Stats.of(prometheusText).format("ms", "%.1f") + " |");
        System.out.println("| metrics-gateway render, OpenMetrics 1.0 | "
                + Stats.of(openMetrics).format("ms", "%.1f") + " |");
    }

    private static byte[] render(MetricsGatewayMetrics metrics, boolean openMetrics) {
        Exposition out = new Exposition(openMetrics, 30_000);
        metrics.writeTo(out);
        return out.toBytes();
    }

    private static byte[] write(PrometheusTextFormatWriter writer, MetricSnapshots snapshots) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
        writer.write(out, snapshots);
        return out.toByteArray();
    }
}
