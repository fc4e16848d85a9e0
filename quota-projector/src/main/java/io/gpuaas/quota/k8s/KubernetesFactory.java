package io.gpuaas.quota.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Kubernetes client (kubeconfig from {@code KUBECONFIG} or in-cluster, JDK HTTP client) and the pool catalog. */
@Factory
public class KubernetesFactory {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesFactory.class);

    @Singleton
    @Bean(preDestroy = "close")
    @Requires(missingBeans = KubernetesClient.class)
    KubernetesClient kubernetesClient() {
        KubernetesClient client = new KubernetesClientBuilder().withHttpClientFactory(new JdkHttpClientFactory()).build();
        LOG.info("Kubernetes API: {}", client.getMasterUrl());
        return client;
    }

    @Singleton
    PoolCatalog poolCatalog(@Nullable @Property(name = "gpuaas.pools-file") String poolsFile) {
        PoolCatalog catalog = PoolCatalog.load(Optional.ofNullable(poolsFile).filter(s -> !s.isBlank()).map(Path::of));
        LOG.info("pools: {}", catalog.pools());
        return catalog;
    }
}
