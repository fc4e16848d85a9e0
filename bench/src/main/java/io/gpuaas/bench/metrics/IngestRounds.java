package io.gpuaas.bench.metrics;

import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.metrics.dcgm.DcgmEndpoint;
import io.gpuaas.metrics.dcgm.DcgmScrape;
import io.gpuaas.metrics.dcgm.DcgmTextParser;
import io.gpuaas.metrics.kafka.GpuScrapePublisher;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One measured round of each contender over the same fleet. Each node has its own parser and endpoint (its node known,
 * as discovery knows it), as each scrape target has in the service; nodes are spread over {@code threads} threads as
 * concurrent target loops would be. Every rate and CPU figure is per device sample; a record carries one node's scrape.
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
    private final GpuScrapePublisher publisher;
    private final GpuScrapeCodec headers;
    private final String topic;
    private final DcgmTextParser[] parsers;
    private final DcgmEndpoint[] endpoints;
    private final byte[][] keys;
    private final byte[][] values;
    private final int[] devices;

    IngestRounds(
            FleetScrape fleet,
            int scrapes,
            int threads,
            Producer<byte[], byte[]> raw,
            GpuScrapePublisher publisher,
            GpuScrapeCodec headers,
            String topic) {
        this.fleet = fleet;
        this.scrapes = scrapes;
        this.threads = threads;
        this.raw = raw;
        this.publisher = publisher;
        this.headers = headers;
        this.topic = topic;
        this.parsers = new DcgmTextParser[fleet.nodes()];
        this.endpoints = new DcgmEndpoint[fleet.nodes()];
        this.keys = new byte[fleet.nodes()][];
        this.values = new byte[fleet.nodes()][];
        this.devices = new int[fleet.nodes()];
        for (int n = 0; n < fleet.nodes(); n++) {
            parsers[n] = new DcgmTextParser();
            endpoints[n] = new DcgmEndpoint("gpu-node-" + n, "10.0.0.1", "10.0.0.1:" + (9400 + n));
            GpuScrape scrape = parse(n).scrapes().getFirst();
            keys[n] = scrape.key().getBytes(StandardCharsets.UTF_8);
            // The baseline sends each node's own JSON (distinct bytes, like the real stream) so compression and broker
            // I/O are comparable; it only skips parsing, serialization and the CloudEvents headers.
            values[n] = headers.writer().body(scrape);
            devices[n] = scrape.devices().size();
        }
    }

    Result round() throws InterruptedException {
        long cpu = JvmActivity.processCpuNanos();
        long start = System.nanoTime();
        long sent = parallel(n -> {
            raw.send(new ProducerRecord<>(topic, keys[n], values[n]));
            return devices[n];
        });
        raw.flush();
        double rawRate = sent / seconds(start);
        double rawCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / sent;
        cpu = JvmActivity.processCpuNanos();

        // The same pre-serialized bytes with the gateway's CloudEvents headers: what Kafka itself charges for them.
        start = System.nanoTime();
        sent = parallel(n -> {
            raw.send(new ProducerRecord<>(topic, null, null, keys[n], values[n], headers.headers()));
            return devices[n];
        });
        raw.flush();
        double rawWithHeadersRate = sent / seconds(start);
        double rawWithHeadersCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / sent;

        cpu = JvmActivity.processCpuNanos();
        start = System.nanoTime();
        long parsed = parallel(n -> parse(n).devices());
        double parseRate = parsed / seconds(start);
        double parseCpu = (JvmActivity.processCpuNanos() - cpu) / 1e3 / parsed;

        long failedBefore = publisher.counters().failedCount();
        cpu = JvmActivity.processCpuNanos();
        start = System.nanoTime();
        long published = parallel(n -> {
            DcgmScrape scrape = parse(n);
            scrape.scrapes().forEach(publisher::publish);
            return scrape.devices();
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

    private DcgmScrape parse(int node) {
        byte[] text = fleet.node(node);
        return parsers[node].parse(text, text.length, Instant.now(), endpoints[node]);
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
