package io.gpuaas.bench.baseline;

import io.gpuaas.bench.BenchOptions;
import io.gpuaas.testing.kafka.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.tools.ConsumerPerformance;
import org.apache.kafka.tools.ProducerPerformance;

/**
 * The raw Kafka figures every service figure is read against, measured with Apache Kafka's own tools (kafka-tools
 * 4.1.1: ProducerPerformance, ConsumerPerformance, EndToEndLatency) against one embedded KRaft broker, the same kind
 * of broker the service benchmarks start. Each tool runs {@code runs} times; every run prints a {@code RESULT} line
 * that the suite collects, and the tools' own output is kept below them.
 *
 * <p>Usage: {@code KafkaBaseline [--records N] [--size BYTES] [--latency-messages N] [--runs N]}
 */
public final class KafkaBaseline {

    private KafkaBaseline() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        int records = opts.integer("records", 200_000);
        int size = opts.integer("size", 512);
        int latencyMessages = opts.integer("latency-messages", 2000);
        int runs = opts.integer("runs", 3);
        // The tools end with Exit.exit; inside this JVM that must return to us instead of ending the process.
        Exit.setExitProcedure((code, message) -> {
            throw new ToolExit(code, message);
        });
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                Admin admin = broker.admin()) {
            String bootstrap = broker.bootstrapServers();
            // The broker authenticates every client, as the services' brokers do: the tools log in as the super user.
            clientConfig = clientConfig(broker);
            // Same partition count as gpuaas.gpu-samples, one replica (one broker).
            admin.createTopics(List.of(
                            new NewTopic("baseline", 24, (short) 1), new NewTopic("baseline-e2e", 1, (short) 1)))
                    .all()
                    .get();
            Thread.sleep(2_000);
            produce(bootstrap, Math.max(1_000, records / 10), size); // warm-up: JIT, segments, metadata
            for (int run = 1; run <= runs; run++) {
                ToolOutput.Producer p = produce(bootstrap, records, size);
                result("baseline.producer.records_per_s", p.recordsPerSecond(), "records/s");
                result("baseline.producer.p99_ms", p.p99Millis(), "ms");
                ToolOutput.Consumer c = consume(bootstrap, records, run);
                result("baseline.consumer.records_per_s", c.recordsPerSecond(), "records/s");
                ToolOutput.EndToEnd e = endToEnd(bootstrap, latencyMessages, size);
                result("baseline.roundtrip.p50_ms", e.p50Millis(), "ms");
                result("baseline.roundtrip.p99_ms", e.p99Millis(), "ms");
                result("baseline.roundtrip.avg_ms", e.averageMillis(), "ms");
            }
        } finally {
            Exit.resetExitProcedure();
        }
        System.out.printf(
                Locale.ROOT,
                "settings: %d records of %d bytes per producer/consumer run, acks=all idempotent "
                        + "producer, topic of 24 partitions; %d sequential round trips, acks=all%n",
                records,
                size,
                latencyMessages);
        System.exit(0);
    }

    private static ToolOutput.Producer produce(String bootstrap, int records, int size) throws Exception {
        String out = capture(() -> ProducerPerformance.main(new String[] {
            "--topic",
            "baseline",
            "--num-records",
            Integer.toString(records),
            "--record-size",
            Integer.toString(size),
            "--throughput",
            "-1",
            "--producer-props",
            "bootstrap.servers=" + bootstrap,
            "acks=all",
            "enable.idempotence=true",
            "linger.ms=5",
            "batch.size=131072",
            "compression.type=snappy",
            "--producer.config",
            clientConfig
        }));
        return ToolOutput.producer(out);
    }

    private static ToolOutput.Consumer consume(String bootstrap, int records, int run) throws Exception {
        String out = capture(() -> ConsumerPerformance.main(new String[] {
            "--bootstrap-server",
            bootstrap,
            "--topic",
            "baseline",
            "--messages",
            Integer.toString(records),
            "--group",
            "baseline-" + run + "-" + System.nanoTime(),
            "--timeout",
            "60000",
            "--consumer.config",
            clientConfig
        }));
        return ToolOutput.consumer(out);
    }

    private static ToolOutput.EndToEnd endToEnd(String bootstrap, int messages, int size) throws Exception {
        String out = capture(() -> {
            try {
                org.apache.kafka.tools.EndToEndLatency.main(
                        bootstrap,
                        "baseline-e2e",
                        Integer.toString(messages),
                        "all",
                        Integer.toString(size),
                        clientConfig);
            } catch (ToolExit e) {
                if (e.code != 0) {
                    throw e;
                }
            }
        });
        return ToolOutput.endToEnd(out);
    }

    /** The tools' client settings file (SASL of the broker's super user). */
    private static String clientConfig;

    private static String clientConfig(EmbeddedKafka broker) throws java.io.IOException {
        java.util.Properties props = new java.util.Properties();
        broker.clientProperties().forEach((k, v) -> props.setProperty(k, String.valueOf(v)));
        java.nio.file.Path file = java.nio.file.Files.createTempFile("baseline-client", ".properties");
        file.toFile().deleteOnExit();
        try (var out = java.nio.file.Files.newBufferedWriter(file)) {
            props.store(out, "kafka-tools client settings of the bench broker's super user");
        }
        return file.toString();
    }

    private static void result(String key, double value, String unit) {
        System.out.printf(Locale.ROOT, "RESULT %s %.3f %s%n", key, value, unit);
    }

    /** Runs a tool with System.out captured (the tools print their figures there), echoing it afterwards. */
    private static String capture(ThrowingRunnable tool) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            tool.run();
        } finally {
            System.setOut(original);
        }
        String text = buffer.toString(StandardCharsets.UTF_8);
        List<String> kept = new ArrayList<>();
        text.lines().filter(l -> !l.isBlank()).forEach(kept::add);
        // ProducerPerformance prints a progress line every 5 s; the last line is the summary.
        kept.stream().skip(Math.max(0, kept.size() - 3)).forEach(l -> original.println("  tool: " + l));
        return text;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** What Exit.exit does inside this JVM. */
    static final class ToolExit extends RuntimeException {
        final int code;

        ToolExit(int code, String message) {
            super("tool exited with " + code + (message == null ? "" : ": " + message));
            this.code = code;
        }
    }
}
