package io.gpuaas.metrics.dcgm;

/**
 * What the gateway knows about the exporter it scraped, which decides the node of every device in the scrape: the
 * node it knows ({@code node}) wins over the exporter's own {@code Hostname} label, which is often the exporter pod's
 * name and changes on every restart; the label only names the node when nothing else does, and {@code fallbackNode}
 * (the URL's host) when there is no label either.
 *
 * @param node         node the exporter runs on (discovery's {@code spec.nodeName}, a configured target's name), or
 *                     null when unknown
 * @param fallbackNode node for devices without a known node or a Hostname label
 * @param target       the {@code GpuScrape.target} of the scrapes: the exporter's {@code host:port[path]}
 */
public record DcgmEndpoint(String node, String fallbackNode, String target) {

    /** An exporter known only by its URL's host. */
    public static DcgmEndpoint unknown(String host) {
        return new DcgmEndpoint(null, host, host);
    }

    /** The node of a line whose Hostname label is {@code hostnameLabel} (null when the line has none). */
    String nodeOf(String hostnameLabel) {
        if (node != null) {
            return node;
        }
        return hostnameLabel != null ? hostnameLabel : fallbackNode;
    }
}
