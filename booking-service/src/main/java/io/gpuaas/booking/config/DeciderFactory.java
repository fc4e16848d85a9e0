package io.gpuaas.booking.config;

import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The decider, on the pools service-kit loads ({@code gpuaas.pools-file}, else the shipped default). */
@Factory
public class DeciderFactory {

    private static final Logger LOG = LoggerFactory.getLogger(DeciderFactory.class);

    @Singleton
    BookingDecider decider(PoolCatalog pools, BookingSettings settings) {
        LOG.info("booking policy: {}", settings.policy());
        return new BookingDecider(pools, settings.policy());
    }
}
