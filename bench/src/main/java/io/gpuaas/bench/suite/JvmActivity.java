package io.gpuaas.bench.suite;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * What the bench JVM itself spent time on during one run: JIT compiling and GC pauses, read from the JVM's MXBeans.
 * A run measured while the JIT is still compiling its hot paths is a cold-JVM run, not the code's steady state
 * (profiling the first measured runs showed the C2 compiler busy for their whole length), so the benches print these
 * beside every run and warm up until a round's compile time is a small share of it.
 *
 * @param jitMillis time the JIT compilers spent compiling (summed over compiler threads, so it can exceed wall time)
 * @param gcMillis  time the collectors report (G1: its young, mixed and full pauses, and remark and cleanup)
 */
public record JvmActivity(long jitMillis, long gcMillis) {

    /**
     * A warm-up round after which measuring starts: the JIT compiled for less than this share of the round. Cold, the
     * C2 thread compiles for about as long as the round lasts; warm, a few percent.
     */
    public static final double SETTLED_JIT_SHARE = 0.10;

    /** The totals since the JVM started. */
    public static JvmActivity now() {
        var jit = ManagementFactory.getCompilationMXBean();
        long compiling = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        long collecting = collectors.stream()
                .mapToLong(c -> Math.max(0, c.getCollectionTime()))
                .sum();
        return new JvmActivity(compiling, collecting);
    }

    /** What happened between {@code before} and now. */
    public static JvmActivity since(JvmActivity before) {
        JvmActivity now = now();
        return new JvmActivity(now.jitMillis - before.jitMillis, now.gcMillis - before.gcMillis);
    }

    /** Whether a round of {@code seconds} left the JIT mostly idle (see {@link #SETTLED_JIT_SHARE}). */
    public boolean settled(double seconds) {
        return jitMillis < SETTLED_JIT_SHARE * seconds * 1000;
    }

    /**
     * CPU time this whole JVM has used so far (every thread: broker, clients, JIT, GC). Per unit of work it moves much
     * less than a rate when other processes share the cores, so benches print it to compare two versions.
     */
    public static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The heap flags this JVM was started with, for a bench's header (the suite fixes -Xms to -Xmx for some). */
    public static String heapFlags() {
        return String.join(
                " ",
                ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(a -> a.startsWith("-Xm"))
                        .toList());
    }
}
