package io.gpuaas.quota.mig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.gpuaas.events.Json;
import io.gpuaas.events.geometry.MigPlacement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The node annotation {@code gpuaas.io/mig-layout} (events' {@code Labels.MIG_LAYOUT}): the JSON of the per-GPU layout
 * gpuaas asked for, with start slices, e.g. {@code [{"gpu":0,"migEnabled":true,"instances":[{"profile":"3g.71gb","start":0}]},
 * {"gpu":1,"migEnabled":false,"instances":[]}]}.
 */
public final class LayoutAnnotation {

    record Gpu(int gpu, boolean migEnabled, List<Instance> instances) {}

    record Instance(String profile, int start) {}

    private LayoutAnnotation() {}

    public static String write(NodeLayout layout) {
        List<Gpu> gpus = new ArrayList<>();
        layout.gpus()
                .forEach((index, gpu) -> gpus.add(new Gpu(
                        index,
                        gpu.mig(),
                        gpu.instances().stream()
                                .map(i -> new Instance(i.profile(), i.start()))
                                .toList())));
        try {
            return Json.mapper().writeValueAsString(gpus);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write layout " + layout.canonical(), e);
        }
    }

    /** The layout, or empty when the value is not one (then the node is not gpuaas's to lay out). */
    public static Optional<NodeLayout> read(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            List<Gpu> gpus = Json.mapper().readValue(value, new TypeReference<List<Gpu>>() {});
            SortedMap<Integer, GpuLayout> layout = new TreeMap<>();
            for (Gpu gpu : gpus) {
                List<MigPlacement> instances = gpu.instances() == null
                        ? List.of()
                        : gpu.instances().stream()
                                .map(i -> MigPlacement.of(i.profile(), i.start()))
                                .toList();
                layout.put(gpu.gpu(), new GpuLayout(gpu.migEnabled(), instances));
            }
            return Optional.of(new NodeLayout(layout));
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            return Optional.empty();
        }
    }
}
