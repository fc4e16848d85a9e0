package io.gpuaas.metrics.scrape;

import java.net.URI;

/**
 * One dcgm-exporter endpoint.
 *
 * @param url          full scrape URL, e.g. {@code http://10.0.3.7:9400/metrics}
 * @param nodeName     node the exporter runs on when known (Kubernetes discovery), used when lines carry no
 *                     Hostname label; null otherwise
 * @param origin       {@code config} or {@code kubernetes}
 */
public record ScrapeTarget(URI url, String nodeName, String origin) {

    /**
     * The value of the {@code target} label, bounded by the number of exporters: {@code host:port} like
     * Prometheus' {@code instance}, with the path appended only when it is not the usual {@code /metrics}.
     */
    public String label() {
        String hostPort = url.getPort() < 0 ? url.getHost() : url.getHost() + ":" + url.getPort();
        String path = url.getPath();
        return path == null || path.isEmpty() || "/metrics".equals(path) ? hostPort : hostPort + path;
    }

    /** The hostname to attribute lines without a Hostname label to. */
    public String fallbackHostname() {
        return nodeName != null ? nodeName : url.getHost();
    }

    public static ScrapeTarget configured(String url) {
        return new ScrapeTarget(URI.create(url.trim()), null, "config");
    }
}
