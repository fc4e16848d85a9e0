package io.gpuaas.kit.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one fabric8 client of a service: kubeconfig from {@code KUBECONFIG} (or {@code ~/.kube/config}), else the
 * in-cluster service account, over the JDK HTTP client. Closed when the application context stops.
 *
 * <p>fabric8 is an optional dependency of service-kit: only a service that declares {@code kubernetes-client} and
 * {@code kubernetes-httpclient-jdk} itself gets this bean, so booking-service carries neither the jar nor a client.
 * Building a client reads configuration only; every API call stays in the service's own code, where the RBAC check
 * of deploy/kubernetes finds it. A client registered beforehand (tests pass one for the in-memory API server) wins.
 */
@Factory
@Requires(classes = {KubernetesClient.class, JdkHttpClientFactory.class})
public class KubernetesClientFactory {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesClientFactory.class);

    @Singleton
    @Bean(preDestroy = "close")
    @Requires(missingBeans = KubernetesClient.class)
    KubernetesClient kubernetesClient() {
        KubernetesClient client = new KubernetesClientBuilder()
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
        LOG.info("Kubernetes API: {}", client.getMasterUrl());
        return client;
    }
}
