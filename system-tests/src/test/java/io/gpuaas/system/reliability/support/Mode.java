package io.gpuaas.system.reliability.support;

/**
 * Bounded (the default, in CI: each fault once, light load) or full ({@code -Dgpuaas.reliability.full=true}, from
 * {@code bench/reliability}: more load, every service killed several times, more fuzz cases).
 */
public final class Mode {

    private Mode() {}

    public static boolean full() {
        return Boolean.getBoolean("gpuaas.reliability.full");
    }

    public static String name() {
        return full() ? "full" : "bounded";
    }

    /** {@code bounded} in CI, {@code full} in bench/. */
    public static int pick(int bounded, int full) {
        return full() ? full : bounded;
    }
}
