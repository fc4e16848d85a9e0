package io.gpuaas.bench.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A simulated fleet's dcgm-exporter output built from one real node scrape: node {@code i} serves the real text
 * with its hostname and GPU UUIDs made unique, so parsing and keying work as on distinct nodes.
 */
final class FleetScrape {

    private final byte[][] nodes;
    private final int gpusPerNode;

    private FleetScrape(byte[][] nodes, int gpusPerNode) {
        this.nodes = nodes;
        this.gpusPerNode = gpusPerNode;
    }

    /** {@code nodeCount} nodes from the real scrape at {@code scrape} (e.g. the 8xH100 file in ../shared/data). */
    static FleetScrape of(Path scrape, String hostname, int gpusPerNode, int nodeCount) throws IOException {
        String text = Files.readString(scrape);
        byte[][] nodes = new byte[nodeCount][];
        for (int i = 0; i < nodeCount; i++) {
            nodes[i] = text.replace("Hostname=\"" + hostname + "\"", "Hostname=\"gpu-node-" + i + "\"")
                    .replace("UUID=\"GPU-", "UUID=\"GPU-n" + i + "-")
                    .getBytes(StandardCharsets.UTF_8);
        }
        return new FleetScrape(nodes, gpusPerNode);
    }

    byte[] node(int i) {
        return nodes[i];
    }

    int nodes() {
        return nodes.length;
    }

    int gpus() {
        return nodes.length * gpusPerNode;
    }

    long bytes() {
        long total = 0;
        for (byte[] node : nodes) {
            total += node.length;
        }
        return total;
    }
}
