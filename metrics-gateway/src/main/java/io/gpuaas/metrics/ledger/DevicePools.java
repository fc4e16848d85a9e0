package io.gpuaas.metrics.ledger;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which pool, and which of its resources, a device of a scrape is. A device on a node of a flexible pool belongs to
 * that pool whatever it runs (a MIG instance of any profile, or the whole GPU): gpuaas lays those GPUs out itself, so
 * the profile says which of the pool's resources it is ({@link Pool#resourceFor(String)}), not which pool. Any other
 * device belongs to the first static pool of its model and MIG profile, as {@link PoolCatalog#forDevice} finds it,
 * but flexible pools are left out of that search: a whole GPU on another node is not a flexible pool's, though a
 * flexible pool has no MIG profile either.
 */
final class DevicePools {

    /** A device's pool and the resource it stands for there. */
    record Placed(Pool pool, String resource) {}

    private final PoolCatalog pools;
    private final List<Pool> statics;

    DevicePools(PoolCatalog pools) {
        this.pools = pools;
        this.statics = pools.pools().stream().filter(p -> !p.flexible()).toList();
    }

    /**
     * The pool of a device read on {@code node}, of {@code modelName} and {@code migProfile} (null or blank for a
     * whole GPU), if any.
     */
    Optional<Placed> of(String node, String modelName, String migProfile) {
        String profile = migProfile == null || migProfile.isBlank() ? null : migProfile;
        Optional<Pool> flexible = node == null ? Optional.empty() : pools.flexibleFor(node);
        if (flexible.isPresent()) {
            Pool pool = flexible.get();
            return Optional.of(new Placed(pool, pool.resourceFor(profile)));
        }
        if (modelName == null) {
            return Optional.empty();
        }
        String model = modelName.toLowerCase(Locale.ROOT);
        return statics.stream()
                .filter(p -> Objects.equals(p.migProfile(), profile))
                .filter(p -> p.gpuModel() != null && model.contains(p.gpuModel().toLowerCase(Locale.ROOT)))
                .findFirst()
                .map(p -> new Placed(p, p.resource()));
    }
}
