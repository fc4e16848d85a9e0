package io.gpuaas.events.geometry;

import com.fasterxml.jackson.core.type.TypeReference;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The MIG geometry of the GPU models gpuaas knows, read from {@code /gpuaas/gpu-geometry.json}: the H200 from a
 * readout of a real one, the H100 80GB, A100 80GB and A30 from NVIDIA's MIG user guide. A model is found by the name
 * {@code nvidia-smi} and GPU feature discovery print (e.g. {@code NVIDIA H100 80GB HBM3}), compared ignoring case
 * and surrounding blanks; a shortened name ({@code NVIDIA H100}) or a model not listed finds nothing, and callers
 * then keep the weighing they had before the catalog ({@code Pool.gpuFraction}).
 */
public final class GpuGeometryCatalog {

    /** Classpath resource of the shipped catalog. */
    public static final String RESOURCE = "/gpuaas/gpu-geometry.json";

    private static final GpuGeometryCatalog SHIPPED = load();

    private final List<GpuGeometry> geometries;
    private final Map<String, GpuGeometry> byModel;

    /** A catalog of {@code geometries}; a model name may appear in only one. */
    public GpuGeometryCatalog(List<GpuGeometry> geometries) {
        this.geometries = List.copyOf(geometries);
        Map<String, GpuGeometry> models = new LinkedHashMap<>();
        for (GpuGeometry g : this.geometries) {
            for (String model : g.models()) {
                if (models.put(key(model), g) != null) {
                    throw new IllegalArgumentException("GPU model " + model + " appears in two geometries");
                }
            }
        }
        this.byModel = models;
    }

    /** The shipped catalog, read once. */
    public static GpuGeometryCatalog shipped() {
        return SHIPPED;
    }

    /** Every geometry, in file order. */
    public List<GpuGeometry> geometries() {
        return geometries;
    }

    /** The geometry of {@code gpuModel}, if the catalog lists that name. */
    public Optional<GpuGeometry> forModel(String gpuModel) {
        return gpuModel == null ? Optional.empty() : Optional.ofNullable(byModel.get(key(gpuModel)));
    }

    private static String key(String model) {
        return model.strip().toLowerCase(Locale.ROOT);
    }

    private record Entry(
            List<String> models,
            int computeSlices,
            int memorySlices,
            List<GpuInstanceProfile> profiles,
            String source) {}

    /** Reads a JSON array of geometries in the shipped file's format. */
    public static GpuGeometryCatalog read(InputStream json) throws IOException {
        List<Entry> entries = Json.mapper().readValue(json, new TypeReference<List<Entry>>() {});
        return new GpuGeometryCatalog(entries.stream()
                .map(e -> new GpuGeometry(e.models(), e.computeSlices(), e.memorySlices(), e.profiles(), e.source()))
                .toList());
    }

    private static GpuGeometryCatalog load() {
        try (InputStream in = GpuGeometryCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + RESOURCE);
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
