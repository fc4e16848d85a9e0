package io.gpuaas.bench.suite;

import io.gpuaas.bench.BenchOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The benchmark suite: runs every bench the service issues name, one child JVM at a time, reads their figures and
 * rewrites BENCHMARKS.md and bench/results/{booking,mig,quota,reclaim,metrics}.md from this run alone.
 *
 * <p>Usage (from the repository root; {@code bench/run} does this): {@code Suite [--quick] [--only id,id]
 * [--data DIR] [--no-reliability] [--out DIR]}. {@code --out DIR} writes DIR/BENCHMARKS.md and DIR/results/*.md
 * instead of the repository's (for partial runs that must not replace the published figures).
 */
public final class Suite {

    private Suite() {}

    public static void main(String[] args) throws Exception {
        BenchOptions opts = BenchOptions.of(args);
        // Interrupted (Ctrl-C, a time limit): take down the bench JVMs and local stacks this run started, and only
        // those.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroy), "stop-children"));
        boolean quick = opts.flag("quick", false);
        Path root = Path.of("").toAbsolutePath();
        Path data = opts.path("data", "/work/shared/data");
        Set<String> only = Arrays.stream(opts.text("only", "").split(","))
                .filter(s -> !s.isBlank())
                .collect(Collectors.toSet());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Machine before = Machine.probe(System.getProperty("java.vendor.version", "") + " " + Runtime.version());
        Path suiteDir = root.resolve("bench/target/suite");
        ChildJvm jvm = new ChildJvm(java, System.getProperty("java.class.path"), root, suiteDir.resolve("logs"));
        Results results = new Results();
        List<ChildJvm.Outcome> outcomes = new ArrayList<>();
        for (Step step : Plan.of(quick, data)) {
            if (!only.isEmpty() && only.stream().noneMatch(step.id()::startsWith)) {
                continue;
            }
            outcomes.add(runStep(jvm, step, results, root));
        }
        String reliability = reliability(root, quick || opts.flag("no-reliability", false), suiteDir.resolve("logs"));
        Machine after = Machine.probe(before.jdk());
        Duration took = Duration.between(before.at(), after.at());
        String label = String.format(
                Locale.ROOT,
                "_From the suite run of %s UTC (%s, load average %s before, %s after)._",
                before.at().toString().substring(0, 16).replace('T', ' '),
                quick ? "quick" : "full",
                before.loadAverage(),
                after.loadAverage());
        if (results.isEmpty()) {
            results.problems().forEach(p -> System.out.println("suite: problem: " + p));
            System.out.println("suite: nothing was measured: BENCHMARKS.md and bench/results left as they were");
            System.exit(1);
        }
        Map<String, String> sections = Sections.render(outcomes, label, root);
        String report = Report.render(new Report.Inputs(quick, before, after, took, results, sections, reliability));
        Path out = opts.text("out").map(root::resolve).orElse(null);
        Path resultsDir = out == null ? root.resolve("bench/results") : out.resolve("results");
        Files.createDirectories(resultsDir);
        for (Map.Entry<String, String> s : sections.entrySet()) {
            Files.writeString(resultsDir.resolve(s.getKey() + ".md"), s.getValue());
        }
        Path benchmarks = out == null ? root.resolve("BENCHMARKS.md") : out.resolve("BENCHMARKS.md");
        Files.writeString(benchmarks, report);
        System.out.printf(
                Locale.ROOT,
                "suite: %d steps in %d min %d s; %s and %s/*.md rewritten%n",
                outcomes.size(),
                took.toMinutes(),
                took.toSecondsPart(),
                root.relativize(benchmarks),
                root.relativize(resultsDir));
        results.problems().forEach(p -> System.out.println("suite: problem: " + p));
    }

    private static ChildJvm.Outcome runStep(ChildJvm jvm, Step step, Results results, Path root) throws Exception {
        int out = step.args().indexOf("--out");
        if (out >= 0) {
            Path file = root.resolve(step.args().get(out + 1));
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
        }
        System.out.printf(
                Locale.ROOT,
                "suite: %s %s: %s ...%n",
                Instant.now().toString().substring(11, 19),
                step.id(),
                step.main().substring(step.main().lastIndexOf('.') + 1));
        ChildJvm.Outcome o = jvm.run(step);
        System.out.printf(
                Locale.ROOT,
                "suite:   %s took %.0f s, exit %d%s%n",
                step.id(),
                o.seconds(),
                o.exitCode(),
                o.timedOut() ? " (stopped at its time limit)" : "");
        if (o.timedOut()) {
            results.problem(step.id() + ": stopped after its time limit of " + step.timeout()
                    + " s; figures it printed " + "before are kept (log: " + root.relativize(o.log()) + ")");
        } else if (o.exitCode() != 0) {
            results.problem(step.id() + ": exited with " + o.exitCode() + " (log: " + root.relativize(o.log()) + ")");
        }
        Extract.into(results, step, o.output());
        return o;
    }

    /**
     * bench/reliability is the reliability helper's script (it writes bench/results/reliability.md). Run it in a full
     * run when it exists; otherwise include its last file, saying which run it comes from.
     */
    static String reliability(Path root, boolean skip, Path logs) throws IOException, InterruptedException {
        Path script = root.resolve("bench/reliability");
        Path file = root.resolve("bench/results/reliability.md");
        String ran = "";
        if (Files.isExecutable(script) && !skip) {
            System.out.println("suite: running bench/reliability ...");
            Process p = new ProcessBuilder(script.toString())
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logs.resolve("reliability.log").toFile())
                    .start();
            boolean done = p.waitFor(15, TimeUnit.MINUTES);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
            ran = done
                    ? "`bench/reliability` ran in this suite run (exit " + p.exitValue() + ", log "
                            + "bench/target/suite/logs/reliability.log)."
                    : "`bench/reliability` was stopped after 15 min.";
        } else if (Files.isExecutable(script)) {
            ran = "`bench/reliability` exists but was not run (quick mode or --no-reliability).";
        } else {
            ran = "`bench/reliability` does not exist yet.";
        }
        if (Files.isRegularFile(file)) {
            String when = Files.getLastModifiedTime(file)
                    .toInstant()
                    .toString()
                    .substring(0, 16)
                    .replace('T', ' ');
            return ran + " The table below is bench/results/reliability.md as last written (" + when + " UTC).\n\n"
                    + Sections.demote(Files.readString(file).trim());
        }
        return ran + " No bench/results/reliability.md exists, so there is no reliability table in this run.";
    }
}
