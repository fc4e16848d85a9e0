package io.gpuaas.metrics.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * Where and how often dcgm-exporters are scraped ({@code gpuaas.metrics-gateway.scrape.*}).
 *
 * @param targets            fixed exporter URLs, comma-separated ({@code targets})
 * @param interval           time between scrapes of one target while it answers
 * @param timeout            deadline of one scrape, connection to last byte
 * @param maxBackoff         longest wait between attempts at a failing target
 * @param discovery          discover exporter pods through the Kubernetes API
 * @param discoverySelector  label selector of dcgm-exporter pods
 * @param discoveryNamespace namespace to look in; all namespaces when empty
 * @param discoveryPort      exporter port on the pod
 * @param discoveryPath      exporter path
 */
@ConfigurationProperties("gpuaas.metrics-gateway.scrape")
public record ScrapeSettings(
        @Nullable List<String> targets,
        @Bindable(defaultValue = "5s") Duration interval,
        @Bindable(defaultValue = "3s") Duration timeout,
        @Bindable(defaultValue = "60s") Duration maxBackoff,
        @Bindable(defaultValue = "true") boolean discovery,

        @Bindable(defaultValue = "app.kubernetes.io/name=dcgm-exporter")
        String discoverySelector,

        @Nullable String discoveryNamespace,
        @Bindable(defaultValue = "9400") int discoveryPort,
        @Bindable(defaultValue = "/metrics") String discoveryPath) {

    public ScrapeSettings {
        targets = targets == null
                ? List.of()
                : targets.stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
    }
}
