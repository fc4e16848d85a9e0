package io.gpuaas.metrics.scrape;

import io.gpuaas.metrics.dcgm.DcgmEndpoint;
import java.net.URI;

/**
 * One dcgm-exporter endpoint.
 *
 * @param url      full scrape URL, e.g. {@code http://10.0.3.7:9400/metrics}
 * @param nodeName node the exporter runs on when known: the exporter pod's {@code spec.nodeName} (Kubernetes
 *                 discovery) or the name a configured target was given ({@code gpu-node-1=http://...}); it names the
 *                 node of every device scraped there, whatever the exporter's {@code Hostname} label says; null
 *                 otherwise
 * @param origin   {@code config} or {@code kubernetes}
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

    /** What the parser needs to know about this exporter to name the node of its devices. */
    public DcgmEndpoint endpoint() {
        return new DcgmEndpoint(nodeName, url.getHost(), label());
    }

    /**
     * A configured target: a URL, or {@code <node>=<url>} to name the node the exporter runs on (an {@code =} before
     * the scheme's {@code ://}; one inside the URL's query does not count).
     */
    public static ScrapeTarget configured(String spec) {
        String trimmed = spec.trim();
        int equals = trimmed.indexOf('=');
        int scheme = trimmed.indexOf("://");
        if (equals > 0 && (scheme < 0 || equals < scheme)) {
            String node = trimmed.substring(0, equals).trim();
            return new ScrapeTarget(URI.create(trimmed.substring(equals + 1).trim()), node, "config");
        }
        return new ScrapeTarget(URI.create(trimmed), null, "config");
    }
}
