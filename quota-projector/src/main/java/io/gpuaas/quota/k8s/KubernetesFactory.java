package io.gpuaas.quota.k8s;

import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The pool catalog; the Kubernetes client bean comes from service-kit ({@code io.gpuaas.kit.k8s}). */
@Factory
public class KubernetesFactory {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesFactory.class);

    @Singleton
    PoolCatalog poolCatalog(@Nullable @Property(name = "gpuaas.pools-file") String poolsFile) {
        PoolCatalog catalog = PoolCatalog.load(
                Optional.ofNullable(poolsFile).filter(s -> !s.isBlank()).map(Path::of));
        LOG.info("pools: {}", catalog.pools());
        return catalog;
    }
}
