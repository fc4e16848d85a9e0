package io.gpuaas.local.mig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.geometry.MigPlacement;
import io.gpuaas.local.fleet.GpuLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The node annotation {@value #NAME} quota-projector writes beside the {@code nvidia.com/mig.config} label: where each
 * GPU's instances start, which mig-parted's counts cannot say. A JSON object keyed by GPU index (a string), each value
 * either the string {@code "whole"} (MIG disabled) or a list of {@code {"profile": "<profile>", "start": <slice>}}:
 *
 * <pre>{"0":[{"profile":"3g.71gb","start":4},{"profile":"2g.35gb","start":0}],"1":"whole"}</pre>
 *
 * <p>A GPU the annotation does not list, or an annotation that cannot be read, leaves the starts to the geometry.
 */
public final class MigLayoutAnnotation {

    public static final String NAME = "gpuaas.io/mig-layout";
    /** The value of a GPU in non-MIG mode. */
    public static final String WHOLE = "whole";

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
            throw new IllegalArgumentException(NAME + " is not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(NAME + " must be a JSON object keyed by GPU index");
        }
        Map<Integer, GpuLayout> layouts = new TreeMap<>();
        for (Map.Entry<String, JsonNode> gpu : root.properties()) {
            layouts.put(index(gpu.getKey()), layout(gpu.getKey(), gpu.getValue()));
        }
        return layouts;
    }

    /** The annotation's value for {@code layouts}, in the shape {@link #parse} reads (keys in index order). */
    public static String render(Map<Integer, GpuLayout> layouts) {
        var root = Json.mapper().createObjectNode();
        new TreeMap<>(layouts).forEach((index, layout) -> {
            if (!layout.migEnabled()) {
                root.put(Integer.toString(index), WHOLE);
                return;
            }
            var instances = root.putArray(Integer.toString(index));
            layout.instances()
                    .forEach(i ->
                            instances.addObject().put("profile", i.profile()).put("start", i.start()));
        });
        return root.toString();
    }

    private static int index(String key) {
        try {
            int index = Integer.parseInt(key);
            if (index >= 0) {
                return index;
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw new IllegalArgumentException(NAME + ": key " + key + " is not a GPU index");
    }

    private static GpuLayout layout(String gpu, JsonNode value) {
        if (value.isTextual() && WHOLE.equals(value.asText())) {
            return GpuLayout.WHOLE;
        }
        if (!value.isArray()) {
            throw new IllegalArgumentException(
                    NAME + ": GPU " + gpu + " must be \"" + WHOLE + "\" or a list of {profile, start}");
        }
        List<MigPlacement> instances = new ArrayList<>();
        for (JsonNode instance : value) {
            JsonNode profile = instance.path("profile");
            JsonNode start = instance.path("start");
            if (!profile.isTextual() || !start.canConvertToInt() || !start.isIntegralNumber() || start.asInt() < 0) {
                throw new IllegalArgumentException(
                        NAME + ": GPU " + gpu + " lists " + instance + ", not {\"profile\": ..., \"start\": <slice>}");
            }
            instances.add(MigPlacement.of(profile.asText(), start.asInt()));
        }
        return GpuLayout.mig(instances);
    }
}
