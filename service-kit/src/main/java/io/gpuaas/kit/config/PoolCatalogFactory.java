package io.gpuaas.kit.config;

import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool catalog of every service that weighs GPUs by pool: the file {@code gpuaas.pools-file} names, else events'
 * shipped default. Built when a service first asks for it (idle-reclaimer never does).
 */
@Factory
public class PoolCatalogFactory {

    private static final Logger LOG = LoggerFactory.getLogger(PoolCatalogFactory.class);

    @Singleton
    PoolCatalog pools(@Nullable @Value("${gpuaas.pools-file:}") String poolsFile) {
        Optional<Path> file =
                poolsFile == null || poolsFile.isBlank() ? Optional.empty() : Optional.of(Path.of(poolsFile));
        PoolCatalog catalog = PoolCatalog.load(file);
        LOG.info(
                "pools from {}: {}",
                file.map(Path::toString).orElse("the shipped default"),
                catalog.pools().stream().map(p -> p.id() + "=" + p.capacity()).toList());
        return catalog;
    }
}
