package io.gpuaas.bench.quota;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A separate process that keeps one core busy for as long as it lives ({@code sh -c 'while :; do :; done'}): the
 * "machine under load" variant of a measurement, as when another pod on the node burns a core. Killed on close.
 */
final class BusyCore implements AutoCloseable {

    private final Process process;
    private final long startedNanos = System.nanoTime();

    private BusyCore(Process process) {
        this.process = process;
    }

    static BusyCore start() throws IOException {
        return new BusyCore(new ProcessBuilder("sh", "-c", "while :; do :; done")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectErrorStream(true)
                .start());
    }

    /** Its pid and how much of one core it got so far (the rest went to the benchmark and the machine's others). */
    String describe() {
        double wall = (System.nanoTime() - startedNanos) / 1e9;
        return process.info()
                .totalCpuDuration()
                .map(Duration::toMillis)
                .map(cpu -> String.format(
                        "busy-loop child pid %d used %.0f%% of a core over %.0f s",
                        process.pid(), 100 * cpu / 1000.0 / wall, wall))
                .orElse("busy-loop child pid " + process.pid());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
