package io.gpuaas.bench.reclaim;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The per-pod GPU duty cycle of alibaba/clusterdata cluster-trace-v2026-GenAI (SoCC '25, "Understanding Diffusion
 * Model Serving in Production"): {@code value,timestamp_anon,container_ip}, value in percent. The anonymised
 * timestamps are 57 s apart; the k-th distinct timestamp is placed at minute k ("one sample a minute").
 */
record DutyCycleTrace(List<Pod> pods, long intervalMillis) {

    static final long MINUTE = 60_000L;
    /**
     * Minute 0 of the replay: two hours from now. A window may not reach back before its pod was created (the API
     * server stamps creation now), so even a 60-minute window ending at minute 0 must lie after the pods' start.
     */
    static final long T0 = (System.currentTimeMillis() / MINUTE + 120) * MINUTE;

    /** One serving pod: sample minute indexes (ascending) and utilization ratios. */
    record Pod(String id, int[] minutes, double[] utilization) {

        long timeMillis(int i) {
            return T0 + minutes[i] * MINUTE;
        }

        double lifetimeMinutes() {
            return minutes[minutes.length - 1] - minutes[0] + 1;
        }
    }

    static DutyCycleTrace load(Path csv) throws IOException {
        List<String[]> rows = new ArrayList<>();
        TreeSet<Double> stamps = new TreeSet<>();
        try (BufferedReader in = Files.newBufferedReader(csv)) {
            String header = in.readLine();
            if (header == null || !header.startsWith("value,timestamp_anon,container_ip")) {
                throw new IOException("not a gpu duty-cycle CSV: " + csv);
            }
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split(",");
                if (f.length == 3) {
                    rows.add(f);
                    stamps.add(Double.parseDouble(f[1]));
                }
            }
        }
        Map<Double, Integer> minuteOf = new TreeMap<>();
        int k = 0;
        for (Double stamp : stamps) {
            minuteOf.put(stamp, k++);
        }
        Map<String, TreeMap<Integer, Double>> byPod = new TreeMap<>();
        for (String[] f : rows) {
            // Duplicates of a pod at one stamp: the last row wins, as a re-scrape would.
            byPod.computeIfAbsent(f[2], p -> new TreeMap<>())
                    .put(minuteOf.get(Double.parseDouble(f[1])), Double.parseDouble(f[0]) / 100.0);
        }
        List<Pod> pods = new ArrayList<>();
        byPod.forEach((id, series) -> pods.add(new Pod(
                id,
                series.keySet().stream().mapToInt(Integer::intValue).toArray(),
                series.values().stream().mapToDouble(Double::doubleValue).toArray())));
        return new DutyCycleTrace(pods, MINUTE);
    }

    int samples() {
        return pods.stream().mapToInt(p -> p.minutes().length).sum();
    }

    double podDays() {
        return pods.stream().mapToDouble(Pod::lifetimeMinutes).sum() / (24 * 60);
    }
}
