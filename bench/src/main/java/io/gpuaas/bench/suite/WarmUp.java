package io.gpuaas.bench.suite;

import java.util.Locale;

/**
 * How a bench's warm-up went: rounds identical to a measured run, repeated until the JIT compiled for under a tenth
 * of a round ({@link JvmActivity#settled}) or {@code max} rounds were run. The rounds' rows are the bench's to print,
 * marked {@code warm-up (discarded)}; this says how the warm-up ended, for the bench's report.
 *
 * @param rounds  rounds run
 * @param last    what the JVM did in the last round
 * @param seconds length of the last round
 */
public record WarmUp(int rounds, JvmActivity last, double seconds) {

    /** One warm-up round, numbered from 1. */
    @FunctionalInterface
    public interface Round {
        void run(int round) throws Exception;
    }

    /** Runs rounds until the JIT has settled, at least one and at most {@code max}. */
    public static WarmUp run(int max, Round round) throws Exception {
        WarmUp done = null;
        for (int n = 1; n <= Math.max(1, max) && (done == null || !done.settled()); n++) {
            JvmActivity before = JvmActivity.now();
            long start = System.nanoTime();
            round.run(n);
            done = new WarmUp(n, JvmActivity.since(before), (System.nanoTime() - start) / 1e9);
        }
        return done;
    }

    public boolean settled() {
        return last.settled(seconds);
    }

    /** One sentence for the report, e.g. "Warm-up: 2 round(s) …, discarded …; it ended when …". */
    public String describe(String what) {
        return String.format(
                Locale.ROOT,
                "Warm-up: %d round(s) of %s, discarded (the rows marked warm-up); %s (%d ms "
                        + "of JIT compiling in the last round's %.1f s). JIT ms and GC ms: what this JVM (broker, service "
                        + "code, clients) spent compiling and in GC during a run.",
                rounds,
                what,
                settled()
                        ? "it ended when the JIT compiled for under 10 % of a round"
                        : "it stopped at its cap with the JIT still compiling, so the measured runs may include JIT "
                                + "work (their JIT ms says how much)",
                last.jitMillis(),
                seconds);
    }
}
