package io.gpuaas.bench.mig;

import io.gpuaas.events.geometry.GpuGeometry;
import io.gpuaas.events.geometry.GpuInstanceProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU pods of the Alibaba openb pod list (Weng et al., USENIX ATC '23) as book-now {@link Ask}s on one GPU model.
 * Columns read by name from the header: {@code name, num_gpu, gpu_milli, creation_time, deletion_time}. A pod without
 * a GPU is skipped; one GPU or less is mapped by {@link #unitFor}; several GPUs are that many whole GPUs. The window
 * is creation → deletion; a pod without a deletion time runs to the trace's end (the latest deletion time), and a
 * pod deleted in the second it was created holds one second.
 */
final class OpenbAsks {

    private OpenbAsks() {}

    /** The asks of {@code csv}, by start, then by the trace's order. */
    static List<Ask> read(Path csv, GpuGeometry geometry) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            throw new IOException(csv + " is empty");
        }
        Map<String, Integer> col = columns(lines.getFirst());
        List<String[]> rows = new ArrayList<>();
        long traceEnd = 0;
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            rows.add(f);
            String deleted = f[col.get("deletion_time")].strip();
            traceEnd = Math.max(traceEnd, Long.parseLong(f[col.get("creation_time")].strip()));
            if (!deleted.isEmpty()) {
                traceEnd = Math.max(traceEnd, Long.parseLong(deleted));
            }
        }
        List<Ask> asks = new ArrayList<>();
        for (String[] f : rows) {
            int gpus = Integer.parseInt(f[col.get("num_gpu")].strip());
            if (gpus == 0) {
                continue;
            }
            int milli = Integer.parseInt(f[col.get("gpu_milli")].strip());
            long start = Long.parseLong(f[col.get("creation_time")].strip());
            String deleted = f[col.get("deletion_time")].strip();
            long end = deleted.isEmpty() ? traceEnd : Long.parseLong(deleted);
            String profile = gpus > 1 ? Ask.WHOLE : unitFor(milli, geometry);
            int compute = profile.equals(Ask.WHOLE)
                    ? geometry.computeSlices()
                    : geometry.profile(profile).orElseThrow().computeSlices();
            asks.add(new Ask(f[col.get("name")].strip(), profile, compute, gpus, start, Math.max(end, start + 1)));
        }
        asks.sort(Comparator.comparingLong(Ask::start)); // stable: the trace's order among equal starts
        return asks;
    }

    /**
     * The unit one GPU's {@code gpuMilli} thousandths become: the smallest MIG profile whose compute slices are at
     * least that share of the GPU's ({@code slices / computeSlices ≥ gpuMilli / 1000}), fewest compute slices then
     * fewest memory slices, leaving out {@code +me} profiles (one per GPU, for media work). A request only a profile
     * of every compute slice holds, or a whole GPU or more, is a whole GPU: that profile takes the whole GPU anyway.
     * On an H200: up to 142 → 1g.18gb, 285 → 2g.35gb, 428 → 3g.71gb, 571 → 4g.71gb, above → whole.
     */
    static String unitFor(int gpuMilli, GpuGeometry geometry) {
        if (gpuMilli <= 0) {
            throw new IllegalArgumentException("gpu_milli must be positive, was " + gpuMilli);
        }
        Optional<GpuInstanceProfile> smallest = geometry.profiles().stream()
                .filter(p -> !p.name().contains("+me"))
                .filter(p -> (long) gpuMilli * geometry.computeSlices() <= 1000L * p.computeSlices())
                .min(Comparator.comparingInt(GpuInstanceProfile::computeSlices)
                        .thenComparingInt(GpuInstanceProfile::memorySlices));
        return smallest.filter(p -> p.computeSlices() < geometry.computeSlices())
                .map(GpuInstanceProfile::name)
                .orElse(Ask.WHOLE);
    }

    private static Map<String, Integer> columns(String header) throws IOException {
        Map<String, Integer> col = new HashMap<>();
        String[] names = header.split(",", -1);
        for (int i = 0; i < names.length; i++) {
            col.put(names[i].strip(), i);
        }
        for (String needed : List.of("name", "num_gpu", "gpu_milli", "creation_time", "deletion_time")) {
            if (!col.containsKey(needed)) {
                throw new IOException("the pod list has no column " + needed + " (header: " + header + ")");
            }
        }
        return col;
    }
}
