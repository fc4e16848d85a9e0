package io.gpuaas.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The machine a run measured: cores, CPU model, memory, JDK, and the load average at a moment (read before and after
 * the run; on a shared machine it says how much the figures were disturbed).
 */
record Machine(int cores, String cpuModel, double memoryGib, String jdk, String loadAverage, Instant at) {

    static Machine probe(String jdk) {
        return new Machine(
                Runtime.getRuntime().availableProcessors(),
                readCpuModel(),
                readMemoryGib(),
                jdk,
                readLoadAverage(),
                Instant.now());
    }

    static String readLoadAverage() {
        return read("/proc/loadavg")
                .map(s -> String.join(" ", java.util.Arrays.copyOf(s.trim().split("\\s+"), 3)))
                .orElse("unknown");
    }

    /** The 1-minute load average as a number (NaN when unknown). */
    double load1() {
        try {
            return Double.parseDouble(loadAverage.split(" ")[0]);
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    private static String readCpuModel() {
        return read("/proc/cpuinfo")
                .flatMap(s -> s.lines().filter(l -> l.startsWith("model name")).findFirst())
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .orElse("unknown");
    }

    private static double readMemoryGib() {
        return read("/proc/meminfo")
                .flatMap(s -> s.lines().filter(l -> l.startsWith("MemTotal:")).findFirst())
                .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024.0)
                .orElse(Double.NaN);
    }

    private static Optional<String> read(String file) {
        try {
            return Optional.of(Files.readString(Path.of(file)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
