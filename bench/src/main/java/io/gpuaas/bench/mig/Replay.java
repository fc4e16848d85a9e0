package io.gpuaas.bench.mig;

import java.util.List;

/**
 * Offers asks to a fleet in start order, and tallies the GPU-hours asked and accepted ({@link Ask#gpuHours}) by the
 * asks starting in a stretch of the trace. Book-now asks in start order are decided on what began before them, so
 * the decisions for the asks before any split are those a replay of that first part alone makes: one replay serves
 * every split.
 */
final class Replay {

    /** GPU-hours asked and accepted by a set of asks. */
    record Tally(int asks, int accepted, double askedHours, double acceptedHours) {

        /** Accepted GPU-hours over asked, in percent (NaN when nothing was asked). */
        double percent() {
            return askedHours == 0 ? Double.NaN : 100.0 * acceptedHours / askedHours;
        }
    }

    private Replay() {}

    /** Offers every ask, in order; which were placed. */
    static boolean[] run(Fleet fleet, List<Ask> asks) {
        return run(fleet, asks, MaxDuration.NONE);
    }

    /**
     * Offers every ask {@code policy} does not refuse, in order; which were placed. A refused ask is never offered to
     * the fleet, so it holds nothing there, and counts as asked and not accepted.
     */
    static boolean[] run(Fleet fleet, List<Ask> asks, MaxDuration policy) {
        boolean[] ok = new boolean[asks.size()];
        for (int i = 0; i < ok.length; i++) {
            Ask ask = asks.get(i);
            ok[i] = !policy.refuses(ask) && fleet.place(ask);
        }
        return ok;
    }

    /** The asks starting in {@code [from, to)}, of {@code profile} only unless it is null. */
    static Tally tally(List<Ask> asks, boolean[] ok, long from, long to, String profile, int gpuCompute) {
        int n = 0;
        int accepted = 0;
        double asked = 0;
        double got = 0;
        for (int i = 0; i < ok.length; i++) {
            Ask a = asks.get(i);
            if (a.start() < from || a.start() >= to || (profile != null && !profile.equals(a.profile()))) {
                continue;
            }
            double h = a.gpuHours(gpuCompute);
            n++;
            asked += h;
            if (ok[i]) {
                accepted++;
                got += h;
            }
        }
        return new Tally(n, accepted, asked, got);
    }
}
