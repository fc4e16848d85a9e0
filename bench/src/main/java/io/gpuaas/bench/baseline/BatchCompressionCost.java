package io.gpuaas.bench.baseline;

import io.gpuaas.bench.BenchOptions;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;

/**
 * What a producer batch costs per record, by codec and records per batch: CPU, bytes allocated and bytes on the
 * wire, building batches the way the Kafka producer does ({@code MemoryRecordsBuilder}) from per-device sample JSON
 * (the former GpuSample) with the six CloudEvents headers; and what reading them back costs a consumer (the batches'
 * streaming iterator with a reused buffer supplier, as the fetcher does). gpuaas services send a few records at a time
 * (a booking command, a scrape of 8 GPUs spread over 24 partitions), so the per-batch cost of a codec matters more than
 * its throughput on big batches;
 * the service kit's producer codec was chosen from this table (service-kit/README.md, "Producer compression").
 *
 * <p>Usage: {@code BatchCompressionCost [--records 400000]} (single thread, no broker).
 */
public final class BatchCompressionCost {

    private static final String[] CODECS = {"none", "lz4", "snappy", "zstd"};
    private static final int[] PER_BATCH = {1, 8, 200};
    private static final int SAMPLE_VARIANTS = 512;

    private BatchCompressionCost() {}

    public static void main(String[] args) {
        int records = BenchOptions.of(args).integer("records", 400_000);
        Sample[] samples = samples(new Random(7));
        System.out.println("| records per batch | codec | write ns per record (best of 2) | bytes allocated per record"
                + " | bytes on the wire per record | read ns per record (best of 2) |");
        System.out.println("|---|---|---|---|---|---|");
        for (int perBatch : PER_BATCH) {
            for (String codec : CODECS) {
                Cost first = measure(codec, perBatch, records, samples);
                Cost second = measure(codec, perBatch, records, samples); // the first also pays for JIT
                Cost best = first.nanos() <= second.nanos() ? first : second;
                System.out.printf(
                        "| %d | %s | %,.0f | %,.0f | %,.0f | %,.0f |%n",
                        perBatch,
                        codec,
                        best.nanos(),
                        best.allocated(),
                        best.wire(),
                        Math.min(first.readNanos(), second.readNanos()));
            }
        }
    }

    private record Cost(double nanos, double allocated, double wire, double readNanos) {}

    private record Sample(byte[] key, byte[] value, Header[] headers) {}

    private static Cost measure(String codec, int perBatch, int records, Sample[] samples) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Compression compression = compression(codec);
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        int batches = records / perBatch;
        long wire = 0;
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        for (int b = 0, next = 0; b < batches; b++) {
            buffer.clear();
            MemoryRecordsBuilder builder = MemoryRecords.builder(
                    buffer, RecordBatch.CURRENT_MAGIC_VALUE, compression, TimestampType.CREATE_TIME, 0L);
            for (int r = 0; r < perBatch; r++, next = (next + 1) % samples.length) {
                Sample s = samples[next];
                builder.append(start, s.key(), s.value(), s.headers());
            }
            MemoryRecords built = builder.build();
            wire += built.sizeInBytes();
        }
        double nanos = (System.nanoTime() - start) / (double) (batches * perBatch);
        double allocated = (threads.getCurrentThreadAllocatedBytes() - allocatedBefore) / (double) (batches * perBatch);
        return new Cost(
                nanos, allocated, wire / (double) (batches * perBatch), readNanos(codec, perBatch, records, samples));
    }

    /** Reads {@code records} records back from batches of {@code perBatch}, values and headers included. */
    private static double readNanos(String codec, int perBatch, int records, Sample[] samples) {
        Compression compression = compression(codec);
        int batches = Math.max(1, Math.min(records, 100_000) / perBatch);
        ByteBuffer log = ByteBuffer.allocate(batches * perBatch * 1_024 + (1 << 16));
        for (int b = 0, next = 0; b < batches; b++) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(
                    log.slice(), RecordBatch.CURRENT_MAGIC_VALUE, compression, TimestampType.CREATE_TIME, 0L);
            for (int r = 0; r < perBatch; r++, next = (next + 1) % samples.length) {
                builder.append(0L, samples[next].key(), samples[next].value(), samples[next].headers());
            }
            log.position(log.position() + builder.build().sizeInBytes());
        }
        log.flip();
        MemoryRecords written = MemoryRecords.readableRecords(log);
        BufferSupplier supplier = BufferSupplier.create();
        long read = 0;
        long checksum = 0;
        long start = System.nanoTime();
        for (RecordBatch batch : written.batches()) {
            try (CloseableIterator<Record> it = batch.streamingIterator(supplier)) {
                while (it.hasNext()) {
                    Record record = it.next();
                    checksum += record.valueSize() + record.headers().length;
                    read++;
                }
            }
        }
        double nanos = (System.nanoTime() - start) / (double) read;
        return checksum > 0 ? nanos : Double.NaN;
    }

    private static Compression compression(String codec) {
        return switch (codec) {
            case "lz4" -> Compression.lz4().build();
            case "snappy" -> Compression.snappy().build();
            case "zstd" -> Compression.zstd().build();
            default -> Compression.NONE;
        };
    }

    /** Distinct devices, pods and readings, so a codec sees the repetition a real batch has and no more. */
    private static Sample[] samples(Random random) {
        Sample[] samples = new Sample[SAMPLE_VARIANTS];
        for (int i = 0; i < samples.length; i++) {
            String host = "gpu-node-" + random.nextInt(1250);
            String uuid = "GPU-" + UUID.randomUUID();
            String json = "{\"time\":\"2026-11-22T18:00:0" + random.nextInt(10) + "Z\",\"hostname\":\"" + host
                    + "\",\"uuid\":\"" + uuid + "\",\"gpuIndex\":" + random.nextInt(8)
                    + ",\"modelName\":\"NVIDIA H100 80GB HBM3\",\"namespace\":\"team-" + random.nextInt(100)
                    + "\",\"pod\":\"vllm-worker-" + random.nextInt(9999) + "\",\"container\":\"main\",\"utilization\":"
                    + random.nextDouble() + ",\"utilizationSource\":\"GR_ENGINE_ACTIVE\",\"memoryUsedMiB\":"
                    + random.nextInt(80_000) + ".0,\"memoryFreeMiB\":" + random.nextInt(80_000) + ".0,\"powerWatts\":"
                    + (100 + random.nextInt(600)) + "." + random.nextInt(10) + "}";
            Header[] headers = {
                header("ce_specversion", "1.0"),
                header("ce_id", UUID.randomUUID().toString()),
                header("ce_source", "/gpuaas/metrics-gateway"),
                header("ce_type", "io.gpuaas.gpu.sample.v1"),
                header("ce_time", "2026-11-22T18:00:00.123Z"),
                header("content-type", "application/json")
            };
            samples[i] = new Sample(
                    (host + "/" + uuid).getBytes(StandardCharsets.UTF_8),
                    json.getBytes(StandardCharsets.UTF_8),
                    headers);
        }
        return samples;
    }

    private static Header header(String key, String value) {
        return new RecordHeader(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
