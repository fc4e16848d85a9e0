package io.gpuaas.metrics.config;

import io.gpuaas.events.Labels;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;

/**
 * Kubernetes access ({@code gpuaas.metrics-gateway.kubernetes.*}); the client itself reads KUBECONFIG or the
 * in-cluster service account.
 *
 * @param enabled     watch Namespaces (tenant labels) and exporter pods; readiness then includes the API server
 * @param tenantLabel Namespace label naming the owning tenant
 */
@ConfigurationProperties("gpuaas.metrics-gateway.kubernetes")
public record KubernetesSettings(
        @Bindable(defaultValue = "true") boolean enabled,
        @Bindable(defaultValue = Labels.TENANT) String tenantLabel) {}
