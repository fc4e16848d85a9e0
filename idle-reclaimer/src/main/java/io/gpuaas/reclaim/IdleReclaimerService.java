package io.gpuaas.reclaim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.reclaim.config.ApplierSettings;
import io.gpuaas.reclaim.config.IdlePolicySettings;
import io.gpuaas.reclaim.config.KeepSettings;
import io.gpuaas.reclaim.config.ReclaimerSettings;
import io.gpuaas.reclaim.k8s.ResumeService;
import io.gpuaas.reclaim.kafka.ReclaimEventPublisher;
import io.micronaut.context.annotation.Factory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * The {@link IdleReclaimer} in the container. It is the service's composition root (a service-kit
 * {@code ServiceComponents}): service-kit's {@code ServiceLifecycle} starts its components once the context is up
 * (health answers, not ready, while the caches list and the stream starts) and stops them in reverse on shutdown;
 * {@code ComponentsReadiness} and {@code ComponentsLiveness} report them one by one. The HTTP edge reads the resume
 * service through the bean below; nothing else of the reclaimer is a bean.
 */
@Factory
public class IdleReclaimerService {

    /** @param options only the fault IT registers one (a failing write side); production takes the defaults */
    @Singleton
    IdleReclaimer reclaimer(
            ReclaimerSettings settings,
            ApplierSettings applier,
            IdlePolicySettings policy,
            KeepSettings keep,
            KubernetesClient client,
            KafkaClients kafka,
            ReclaimEventPublisher events,
            PrometheusRegistry registry,
            Optional<IdleReclaimer.Options> options) {
        return new IdleReclaimer(
                new IdleReclaimer.Settings(settings, applier, policy, keep),
                client,
                kafka,
                events::publish,
                registry,
                options.orElseGet(IdleReclaimer.Options::defaults));
    }

    /** What the resume endpoint calls. */
    @Singleton
    ResumeService resumeService(IdleReclaimer reclaimer) {
        return reclaimer.resumes();
    }
}
