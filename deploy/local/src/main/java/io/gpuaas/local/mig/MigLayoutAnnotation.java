package io.gpuaas.local.mig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.Labels;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.GpuLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The node annotation {@value Labels#MIG_LAYOUT} quota-projector writes beside the {@code nvidia.com/mig.config}
 * label: where each GPU's instances start, which mig-parted's counts cannot say. Its shape is quota-projector's
 * ({@code io.gpuaas.quota.mig.LayoutAnnotation}): a JSON list with one entry per GPU,
 * {@code {"gpu": <index>, "migEnabled": <bool>, "instances": [{"profile": "<profile>", "start": <slice>}]}}:
 *
 * <pre>[{"gpu":0,"migEnabled":true,"instances":[{"profile":"2g.35gb","start":0},{"profile":"3g.71gb","start":4}]},
 *  {"gpu":1,"migEnabled":false,"instances":[]}]</pre>
 *
 * <p>A GPU the annotation does not list, or an annotation that cannot be read, leaves the starts to the geometry.
 */
public final class MigLayoutAnnotation {

    private MigLayoutAnnotation() {}

    /**
     * The layout per GPU index the annotation asks for.
     *
     * @throws IllegalArgumentException when the value is not the shape above
     */
    public static Map<Integer, GpuLayout> parse(String json) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(Labels.MIG_LAYOUT + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException(Labels.MIG_LAYOUT + " must be a JSON list with one entry per GPU");
        }
        Map<Integer, GpuLayout> layouts = new TreeMap<>();
        for (JsonNode gpu : root) {
            JsonNode index = gpu.path("gpu");
            if (!index.isIntegralNumber() || index.asInt() < 0) {
                throw new IllegalArgumentException(Labels.MIG_LAYOUT + ": " + gpu + " names no GPU index in \"gpu\"");
            }
            if (layouts.put(index.asInt(), layout(index.asInt(), gpu)) != null) {
                throw new IllegalArgumentException(Labels.MIG_LAYOUT + ": GPU " + index.asInt() + " is listed twice");
            }
        }
        return layouts;
    }

    /** The annotation's value for {@code layouts}, in the shape {@link #parse} reads (GPUs in index order). */
    public static String render(Map<Integer, GpuLayout> layouts) {
        var root = Json.mapper().createArrayNode();
        new TreeMap<>(layouts).forEach((index, layout) -> {
            var gpu = root.addObject().put("gpu", index).put("migEnabled", layout.migEnabled());
            var instances = gpu.putArray("instances");
            layout.instances()
                    .forEach(i ->
                            instances.addObject().put("profile", i.profile()).put("start", i.start()));
        });
        return root.toString();
    }

    private static GpuLayout layout(int gpu, JsonNode value) {
        if (!value.path("migEnabled").isBoolean()) {
            throw new IllegalArgumentException(Labels.MIG_LAYOUT + ": GPU " + gpu + " has no boolean \"migEnabled\"");
        }
        if (!value.path("migEnabled").asBoolean()) {
            return GpuLayout.WHOLE;
        }
        JsonNode listed = value.path("instances");
        if (!listed.isArray()) {
            throw new IllegalArgumentException(
                    Labels.MIG_LAYOUT + ": GPU " + gpu + " in MIG mode lists no \"instances\"");
        }
        List<MigPlacement> instances = new ArrayList<>();
        for (JsonNode instance : listed) {
            JsonNode profile = instance.path("profile");
            JsonNode start = instance.path("start");
            if (!profile.isTextual() || !start.canConvertToInt() || !start.isIntegralNumber() || start.asInt() < 0) {
                throw new IllegalArgumentException(Labels.MIG_LAYOUT + ": GPU " + gpu + " lists " + instance
                        + ", not {\"profile\": ..., \"start\": <slice>}");
            }
            instances.add(MigPlacement.of(profile.asText(), start.asInt()));
        }
        return GpuLayout.mig(instances);
    }
}
