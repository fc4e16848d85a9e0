package io.gpuaas.booking.config;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The pools (from {@code gpuaas.pools-file}, else the shipped default) and the decider built on them. */
@Factory
public class PoolsFactory {

    private static final Logger LOG = LoggerFactory.getLogger(PoolsFactory.class);

    @Singleton
    PoolCatalog pools(@Nullable @Value("${gpuaas.pools-file:}") String poolsFile) {
        Optional<Path> file =
                poolsFile == null || poolsFile.isBlank() ? Optional.empty() : Optional.of(Path.of(poolsFile));
        PoolCatalog catalog = PoolCatalog.load(file);
        LOG.info(
                "pools from {}: {}",
                file.map(Path::toString).orElse("default"),
                catalog.pools().stream().map(p -> p.id() + "=" + p.capacity()).toList());
        return catalog;
    }

    @Singleton
    BookingDecider decider(PoolCatalog pools, BookingSettings settings) {
        LOG.info("booking policy: {}", settings.policy());
        return new BookingDecider(pools, settings.policy());
    }
}
