package io.gpuaas.events.pool;

import com.fasterxml.jackson.core.type.TypeReference;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The pools of one cluster, read from a JSON array of {@link Pool}s. The shipped default
 * ({@code /gpuaas/default-pools.json}) matches the local stack's default fleet of 16 H200s.
 */
public final class PoolCatalog {

    /** Classpath resource of the shipped default catalog. */
    public static final String DEFAULT_RESOURCE = "/gpuaas/default-pools.json";

    private final Map<String, Pool> pools;

    /** A catalog of {@code pools} in the given order; pool ids must be unique. */
    public PoolCatalog(List<Pool> pools) {
        Map<String, Pool> byId = new LinkedHashMap<>();
        Map<String, String> flexibleNodes = new LinkedHashMap<>();
        for (Pool pool : pools) {
            if (byId.put(pool.id(), pool) != null) {
                throw new IllegalArgumentException("duplicate pool id " + pool.id());
            }
            for (PoolNode node : pool.nodes()) {
                String other = flexibleNodes.put(node.name(), pool.id());
                if (other != null) {
                    throw new IllegalArgumentException("node " + node.name() + " is in flexible pools " + other
                            + " and " + pool.id() + ": gpuaas lays out each GPU for one pool");
                }
            }
        }
        this.pools = Map.copyOf(byId);
        this.ordered = List.copyOf(pools);
        this.currency = oneCurrency(this.ordered);
    }

    private final List<Pool> ordered;
    private final String currency;

    private static String oneCurrency(List<Pool> pools) {
        String found = null;
        for (Pool pool : pools) {
            for (PoolPrice price : pool.prices()) {
                if (found != null && !found.equals(price.currency())) {
                    throw new IllegalArgumentException("pool " + pool.id() + " is priced in " + price.currency()
                            + " and another pool in " + found + ": a catalog prices in one currency");
                }
                found = price.currency();
            }
        }
        return found;
    }

    /** The one currency the catalog's prices are in; empty when no pool has a price. */
    public Optional<String> currency() {
        return Optional.ofNullable(currency);
    }

    /** Reads {@code file} when given, else the shipped default. */
    public static PoolCatalog load(Optional<Path> file) {
        try {
            if (file.isPresent()) {
                try (InputStream in = Files.newInputStream(file.get())) {
                    return read(in);
                }
            }
            try (InputStream in = PoolCatalog.class.getResourceAsStream(DEFAULT_RESOURCE)) {
                return read(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read pool catalog " + file.map(Path::toString).orElse(DEFAULT_RESOURCE), e);
        }
    }

    /** Reads a JSON array of pools. */
    public static PoolCatalog read(InputStream json) throws IOException {
        return new PoolCatalog(Json.mapper().readValue(json, new TypeReference<List<Pool>>() {}));
    }

    /** The catalog as a pretty-printed JSON array, in the format {@link #read} accepts. */
    public String toJson() {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(ordered);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every pool, in file order. */
    public List<Pool> pools() {
        return ordered;
    }

    /** The flexible pool whose nodes include {@code node}, if any. */
    public Optional<Pool> flexibleFor(String node) {
        return ordered.stream()
                .filter(p -> p.nodes().stream().anyMatch(n -> n.name().equals(node)))
                .findFirst();
    }

    /** The pool with this id, if any. */
    public Optional<Pool> find(String id) {
        return Optional.ofNullable(pools.get(id));
    }

    /**
     * The pool a device belongs to, as an exporter reports it: same MIG profile (none for a whole GPU) and a model
     * name equal to the pool's or containing it ({@code NVIDIA H100 80GB HBM3} is an {@code NVIDIA H100}), compared
     * ignoring case; the first such pool in file order.
     */
    public Optional<Pool> forDevice(String modelName, String migProfile) {
        if (modelName == null) {
            return Optional.empty();
        }
        String model = modelName.toLowerCase(Locale.ROOT);
        String profile = migProfile == null || migProfile.isBlank() ? null : migProfile;
        return ordered.stream()
                .filter(p -> Objects.equals(p.migProfile(), profile))
                .filter(p -> p.gpuModel() != null && model.contains(p.gpuModel().toLowerCase(Locale.ROOT)))
                .findFirst();
    }

    /** The pool holding {@code resource} on {@code flavor}, if any. */
    public Optional<Pool> byFlavorAndResource(String flavor, String resource) {
        return ordered.stream()
                .filter(p -> p.flavor().equals(flavor) && p.resource().equals(resource))
                .findFirst();
    }
}
