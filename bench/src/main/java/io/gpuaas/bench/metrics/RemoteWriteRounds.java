package io.gpuaas.bench.metrics;

import io.gpuaas.bench.suite.JvmActivity;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.gpuaas.metrics.remotewrite.ScrapeAssembler;
import io.gpuaas.metrics.remotewrite.WriteOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * One round of each contender over the same request bodies: the bare decode, the receiver's decode and mapping
 * without Kafka, and the receiver itself until acknowledged. {@code senders} threads take every
 * {@code senders}-th request, one request in flight each, as Prometheus' shards send.
 */
final class RemoteWriteRounds {

    /** One contender in one round: rates and the whole JVM's CPU per device sample. */
    record Rate(double seriesPerSecond, double devicesPerSecond, double cpuMicrosPerDevice, long jitMillis) {}

    record Result(Rate bare, Rate mapped, Rate ingested) {}

    private final List<byte[]> bodies;
    private final int senders;
    private final RemoteWriteReceiver receiver;
    private final long seriesSamples;
    private final long deviceSamples;
    private int rounds;

    RemoteWriteRounds(List<byte[]> bodies, int senders, RemoteWriteReceiver receiver) {
        this.bodies = bodies;
        this.senders = senders;
        this.receiver = receiver;
        long series = 0;
        long devices = 0;
        for (byte[] body : bodies) {
            ScrapeAssembler.Mapped mapped = receiver.decode(body, body.length);
            series += mapped.samples();
            devices += mapped.devices();
        }
        this.seriesSamples = series;
        this.deviceSamples = devices;
    }

    /**
     * One round of the three contenders. Their order alternates from round to round (baseline first, then last), so
     * load from other processes on a shared machine does not always fall on the same one.
     */
    Result round() throws InterruptedException {
        boolean baselineFirst = rounds++ % 2 == 0;
        Rate bare = baselineFirst ? bare() : null;
        Rate mapped = timed(body -> receiver.decode(body, body.length).samples());
        Rate ingested = timed(this::ingest);
        return new Result(baselineFirst ? bare : bare(), mapped, ingested);
    }

    private Rate bare() throws InterruptedException {
        double[] checksum = new double[1];
        Rate bare = timed(body -> BareDecode.samples(body, checksum));
        if (checksum[0] == 42) {
            System.out.println(); // keeps the bare decode's values alive
        }
        return bare;
    }

    private long ingest(byte[] body) {
        return switch (receiver.receive("snappy", "application/x-protobuf", body)) {
            case WriteOutcome.Written written -> written.mapped().samples();
            case WriteOutcome.Refused refused -> throw new IllegalStateException("refused: " + refused.detail());
            case WriteOutcome.Unavailable unavailable -> throw new IllegalStateException("Kafka did not acknowledge");
        };
    }

    /** Runs {@code work} over every body with {@code senders} threads; checks it saw every series sample. */
    private Rate timed(ToLongFunction<byte[]> work) throws InterruptedException {
        JvmActivity activity = JvmActivity.now();
        long cpu = JvmActivity.processCpuNanos();
        long start = System.nanoTime();
        AtomicLong samples = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < senders; t++) {
            int first = t;
            threads.add(Thread.ofPlatform().start(() -> {
                long count = 0;
                for (int i = first; i < bodies.size(); i += senders) {
                    count += work.applyAsLong(bodies.get(i));
                }
                samples.addAndGet(count);
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (samples.get() != seriesSamples) {
            throw new IllegalStateException(samples.get() + " series samples, expected " + seriesSamples);
        }
        return new Rate(
                seriesSamples / seconds,
                deviceSamples / seconds,
                (JvmActivity.processCpuNanos() - cpu) / 1e3 / deviceSamples,
                JvmActivity.since(activity).jitMillis());
    }
}
