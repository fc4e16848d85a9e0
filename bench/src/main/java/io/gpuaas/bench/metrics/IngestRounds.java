package io.gpuaas.bench.metrics;

import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleCodec;
import io.gpuaas.metrics.dcgm.DcgmScrape;
import io.gpuaas.metrics.dcgm.DcgmTextParser;
import io.gpuaas.metrics.kafka.GpuSamplePublisher;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One measured round of each contender over the same fleet. Each node has its own parser, as each scrape target
 * has in the service; nodes are spread over {@code threads} threads as concurrent target loops would be.
 */
final class IngestRounds {

    /** Rates of one round. */
    record Result(
            double rawPerSecond,
            double rawWithHeadersPerSecond,
            double parsePerSecond,
            double publishPerSecond,
            Cpu cpu) {}

    /**
     * CPU time of the whole JVM (senders, producer I/O thread, the in-process broker and GC) per sample, per
     * contender: unlike a rate it barely moves when other processes take the cores, so it settles tuning questions
     * on a shared machine.
     */
    record Cpu(double rawMicros, double rawWithHeadersMicros, double parseMicros, double publishMicros) {}

    private final FleetScrape fleet;
    private final int scrapes;
    private final int threads;
    private final Producer<byte[], byte[]> raw;
    private final GpuSamplePublisher publisher;
    private final GpuSampleCodec headers;
    private final String topic;
    private final DcgmTextParser[] parsers;
    private final byte[][][] keys;
    private final byte[][][] values;

    IngestRounds(
            FleetScrape fleet,
            int scrapes,
            int threads,
            Producer<byte[], byte[]> raw,
            GpuSamplePublisher publisher,
            GpuSampleCodec headers,
            String topic) {
        this.fleet = fleet;
        this.scrapes = scrapes;
        this.threads = threads;
        this.raw = raw;
        this.publisher = publisher;
        this.headers = headers;
        this.topic = topic;
        this.parsers = new DcgmTextParser[fleet.nodes()];
        this.keys = new byte[fleet.nodes()][][];
        this.values = new byte[fleet.nodes()][][];
        for (int n = 0; n < fleet.nodes(); n++) {
            parsers[n] = new DcgmTextParser();
            byte[] node = fleet.node(n);
            List<GpuSample> samples =
                    parsers[n].parse(node, node.length, Instant.now()).samples();
            keys[n] = samples.stream()
                    .map(s -> s.deviceKey().getBytes(StandardCharsets.UTF_8))
                    .toArray(byte[][]::new);
            // The baseline sends each device's own JSON (distinct bytes, like the real stream) so compression and
            // broker I/O are comparable; it only skips parsing, serialization and the CloudEvents headers.
            values[n] = samples.stream().map(headers.writer()::body).toArray(byte[][]::new);
        }
    }

    Result round() throws InterruptedException {
        long cpu = JvmActivity.processCpuNanos();
        long start = System.nanoTime();
        long sent = parallel(n -> {
            for (int d = 0; d < keys[n].length; d++) {
                raw.send(new ProducerRecord<>(topic, keys[n][d], values[n][d]));
            }
            return keys[n].length;
        });
        raw.flush();
        double rawRate = sent / seconds(start);
        double rawCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / sent;
        cpu = JvmActivity.processCpuNanos();

        // The same pre-serialized bytes with the gateway's CloudEvents headers: what Kafka itself charges for them.
        start = System.nanoTime();
        sent = parallel(n -> {
            for (int d = 0; d < keys[n].length; d++) {
                raw.send(new ProducerRecord<>(topic, null, null, keys[n][d], values[n][d], headers.headers()));
            }
            return keys[n].length;
        });
        raw.flush();
        double rawWithHeadersRate = sent / seconds(start);
        double rawWithHeadersCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / sent;

        cpu = JvmActivity.processCpuNanos();
        start = System.nanoTime();
        long parsed = parallel(n -> parse(n).samples().size());
        double parseRate = parsed / seconds(start);
        double parseCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / parsed;

        long failedBefore = publisher.counters().failedCount();
        cpu = JvmActivity.processCpuNanos();
        start = System.nanoTime();
        long published = parallel(n -> {
            DcgmScrape scrape = parse(n);
            publisher.publish(TARGET, scrape.samples());
            return scrape.samples().size();
        });
        publisher.flush();
        double publishRate = published / seconds(start);
        double publishCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / published;
        if (publisher.counters().failedCount() != failedBefore) {
            throw new IllegalStateException("samples failed to publish: the rate would be meaningless");
        }
        return new Result(
                rawRate,
                rawWithHeadersRate,
                parseRate,
                publishRate,
                new Cpu(rawCpu, rawWithHeadersCpu, parseCpu, publishCpu));
    }

    private static final ScrapeTarget TARGET = ScrapeTarget.configured("http://bench:9400/metrics");

    private DcgmScrape parse(int node) {
        byte[] text = fleet.node(node);
        return parsers[node].parse(text, text.length, Instant.now());
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private long parallel(NodeWork work) throws InterruptedException {
        AtomicLong total = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            workers.add(Thread.ofPlatform().start(() -> {
                long count = 0;
                for (int s = 0; s < scrapes; s++) {
                    for (int n = first; n < fleet.nodes(); n += threads) {
                        count += work.node(n);
                    }
                }
                total.addAndGet(count);
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return total.get();
    }

    @FunctionalInterface
    private interface NodeWork {
        int node(int index);
    }
}
