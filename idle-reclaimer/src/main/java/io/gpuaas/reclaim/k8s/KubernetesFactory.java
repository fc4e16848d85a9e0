package io.gpuaas.reclaim.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.reclaim.config.IdlePolicySettings;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.PolicyResolver;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes side: the pod and workload informers (service-kit {@code InformerCache} components, started and
 * stopped by the kit's lifecycle) and the scaler, on the one client service-kit provides
 * ({@code io.gpuaas.kit.k8s}: kubeconfig from {@code KUBECONFIG} or in-cluster, JDK HTTP client).
 */
@Factory
public class KubernetesFactory {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesFactory.class);

    @Singleton
    PodOwnerIndex podOwnerIndex(KubernetesClient client, ReclaimerSettings settings, PrometheusRegistry registry) {
        return new PodOwnerIndex(client, settings.informerResync().toMillis(), registry);
    }

    @Singleton
    PolicyResolver policyResolver(IdlePolicySettings policy, ReclaimerMetrics metrics) {
        return new PolicyResolver(policy.toPolicy(), invalid -> {
            metrics.invalidAnnotation();
            LOG.warn("ignored policy annotation {}", invalid);
        });
    }

    @Singleton
    WorkloadDirectory workloadDirectory(
            KubernetesClient client,
            PolicyResolver policies,
            ResumeRequests resumes,
            ReclaimerSettings settings,
            PrometheusRegistry registry) {
        return new WorkloadDirectory(
                client, policies, resumes::request, settings.informerResync().toMillis(), registry);
    }

    @Singleton
    WorkerScaler workerScaler(KubernetesClient client, PodOwnerIndex owners, ReclaimerSettings settings) {
        return new WorkerScaler(
                client, owners, settings.rawStrategy(), settings.allowKueueNonElastic(), Clock.systemUTC());
    }
}
