package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.gpuaas.reclaim.config.IdlePolicySettings;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.PolicyResolver;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes side: one client (kubeconfig from {@code KUBECONFIG} or in-cluster, JDK HTTP client), the pod and
 * workload informers and the scaler.
 */
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
    @Bean(preDestroy = "close")
    PodOwnerIndex podOwnerIndex(KubernetesClient client, ReclaimerSettings settings) {
        return new PodOwnerIndex(client, settings.informerResync().toMillis());
    }

    @Singleton
    PolicyResolver policyResolver(IdlePolicySettings policy, ReclaimerMetrics metrics) {
        return new PolicyResolver(policy.toPolicy(), invalid -> {
            metrics.invalidAnnotation();
            LOG.warn("ignored policy annotation {}", invalid);
        });
    }

    @Singleton
    @Bean(preDestroy = "close")
    WorkloadDirectory workloadDirectory(KubernetesClient client, PolicyResolver policies, ResumeRequests resumes,
                                        ReclaimerSettings settings) {
        return new WorkloadDirectory(client, policies, resumes::request, settings.informerResync().toMillis());
    }

    @Singleton
    WorkerScaler workerScaler(KubernetesClient client, PodOwnerIndex owners, ReclaimerSettings settings) {
        return new WorkerScaler(client, owners, settings.rawStrategy(), settings.allowKueueNonElastic(),
                Clock.systemUTC());
    }
}
