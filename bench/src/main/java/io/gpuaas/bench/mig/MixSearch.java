package io.gpuaas.bench.mig;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Static layouts to search: every way of giving each kind of {@link StaticGpu#SEARCHED} a whole number of
 * {@code parts}-ths of the fleet (8 parts over 5 kinds: C(12, 4) = 495 mixes), enumerated with the most whole GPUs
 * first, then the most of the next kind, and so on.
 */
final class MixSearch {

    /** GPUs per kind, in the order of {@code kinds}. */
    record Mix(List<StaticGpu> kinds, List<Integer> counts) {

        Mix {
            kinds = List.copyOf(kinds);
            counts = List.copyOf(counts);
        }

        StaticFleet fleet() {
            return new StaticFleet(kinds, counts);
        }

        int gpus() {
            return counts.stream().mapToInt(Integer::intValue).sum();
        }

        /** The same shares of a fleet of {@code size} GPUs, rounded down, whole GPUs taking what rounding leaves. */
        Mix scaled(int size) {
            List<Integer> scaled = new ArrayList<>();
            int given = 0;
            for (int c : counts) {
                int s = (int) ((long) c * size / gpus());
                scaled.add(s);
                given += s;
            }
            scaled.set(0, scaled.get(0) + size - given);
            return new Mix(kinds, scaled);
        }

        /** "16 whole, 4 7×1g.18gb, …", kinds with no GPU left out. */
        String describe() {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < kinds.size(); i++) {
                if (counts.get(i) > 0) {
                    parts.add(counts.get(i) + " " + kinds.get(i).name());
                }
            }
            return parts.stream().collect(Collectors.joining(", "));
        }
    }

    private MixSearch() {}

    /**
     * The mixes of {@code gpus} GPUs: kind {@code i} gets {@code shares[i] / parts} of them, rounded down, and whole
     * GPUs (the first kind) take what rounding leaves.
     */
    static List<Mix> mixes(List<StaticGpu> kinds, int gpus, int parts) {
        List<Mix> out = new ArrayList<>();
        compose(new int[kinds.size()], 0, parts, (shares) -> {
            List<Integer> counts = new ArrayList<>();
            int given = 0;
            for (int share : shares) {
                int c = share * gpus / parts;
                counts.add(c);
                given += c;
            }
            counts.set(0, counts.get(0) + gpus - given);
            out.add(new Mix(kinds, counts));
        });
        return out;
    }

    private interface Sink {
        void accept(int[] shares);
    }

    private static void compose(int[] shares, int at, int left, Sink sink) {
        if (at == shares.length - 1) {
            shares[at] = left;
            sink.accept(shares.clone());
            return;
        }
        for (int s = left; s >= 0; s--) {
            shares[at] = s;
            compose(shares, at + 1, left - s, sink);
        }
    }

    /**
     * Today's local layout at {@code gpus} GPUs: half whole, the rest split 2:3:3 between 7×1g.18gb, 3×2g.35gb and
     * 2×3g.71gb GPUs (deploy/local's default pools: 8 whole, 2, 3 and 3 of 16), rounding down, whole GPUs taking the
     * rest.
     */
    static Mix today(int gpus) {
        int mig = gpus - gpus / 2;
        int g1 = mig * 2 / 8;
        int g2 = mig * 3 / 8;
        int g3 = mig * 3 / 8;
        return new Mix(StaticGpu.TODAY, List.of(gpus - g1 - g2 - g3, g1, g2, g3));
    }
}
