package io.gpuaas.metrics.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * The Prometheus remote-write receiver, {@code POST /api/v1/write} ({@code gpuaas.metrics-gateway.remote-write.*}).
 *
 * @param enabled        serve the endpoint (every replica does: it is push, not a Lease duty)
 * @param writerRole     the role (in the token's {@code roles} claim) that may write samples; the admin role may too.
 *                       Not the metrics role: reading {@code /metrics} must not let a scraper feed the reclaimer
 * @param nodeLabels     labels naming the node of a series, first present wins (a Prometheus relabel of
 *                       {@code __meta_kubernetes_pod_node_name}); without any, the host of {@code instance}
 * @param targetPodLabels whether the Prometheus job attaches the exporter pod's own {@code pod}, {@code namespace}
 *                        and {@code container} to every series (Prometheus Operator ServiceMonitors and PodMonitors
 *                        without {@code honorLabels}): then only {@code exported_pod}/{@code exported_namespace}/
 *                        {@code exported_container} attribute a device, and a GPU no pod holds stays unattributed
 * @param maxBodyBytes   largest body accepted, compressed and decompressed (the snappy header is checked before
 *                       anything is allocated); larger is answered 413
 * @param publishTimeout how long a request waits for Kafka to acknowledge its records before it is answered 503,
 *                       which Prometheus retries; below Prometheus' default {@code remote_timeout} (30 s)
 */
@ConfigurationProperties("gpuaas.metrics-gateway.remote-write")
public record RemoteWriteSettings(
        @Bindable(defaultValue = "true") boolean enabled,
        @Bindable(defaultValue = "metrics-writer") String writerRole,
        @Nullable List<String> nodeLabels,
        @Bindable(defaultValue = "false") boolean targetPodLabels,
        @Bindable(defaultValue = "16777216") int maxBodyBytes,
        @Bindable(defaultValue = "10s") Duration publishTimeout) {

    public RemoteWriteSettings {
        nodeLabels = nodeLabels == null
                ? List.of("node", "kubernetes_node")
                : nodeLabels.stream()
                        .map(String::trim)
                        .filter(l -> !l.isEmpty())
                        .toList();
        if (maxBodyBytes <= 0) {
            throw new ConfigurationException(
                    "gpuaas.metrics-gateway.remote-write.max-body-bytes must be positive, got " + maxBodyBytes);
        }
        if (writerRole == null || writerRole.isBlank()) {
            throw new ConfigurationException("gpuaas.metrics-gateway.remote-write.writer-role must be set");
        }
    }
}
