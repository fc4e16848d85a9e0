package io.gpuaas.bench.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one {@link Step} as a child JVM on the bench classpath, its output kept in {@code <logs>/<id>.log}. */
final class ChildJvm {

    /** How a step ended. */
    record Outcome(Step step, int exitCode, double seconds, String output, Path log, boolean timedOut) {}

    private final String java;
    private final String classpath;
    private final Path workDir;
    private final Path logs;

    ChildJvm(String java, String classpath, Path workDir, Path logs) {
        this.java = java;
        this.classpath = classpath;
        this.workDir = workDir;
        this.logs = logs;
    }

    Outcome run(Step step) throws IOException, InterruptedException {
        Files.createDirectories(logs);
        Path log = logs.resolve(step.id() + ".log");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + step.heap()));
        command.addAll(Plan.jvmFlags(step));
        command.addAll(List.of(
                "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED",
                "-Dlogback.configurationFile=io/gpuaas/bench/suite/logback-suite.xml",
                "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
                "-cp",
                classpath,
                step.main()));
        command.addAll(step.args());
        long t0 = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = process.waitFor(step.timeout(), TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String output = Files.readString(log, StandardCharsets.UTF_8);
        return new Outcome(step, finished ? process.exitValue() : -1, seconds, output, log, !finished);
    }
}
