package io.gpuaas.metrics.remotewrite;

import io.gpuaas.events.gpu.GpuScrape;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Where the scrapes of a remote-write request go: Kafka in the service, a list in tests. */
@FunctionalInterface
public interface ScrapePublisher {

    /**
     * Hands {@code scrapes} over for publishing; the future completes once every one of them is acknowledged, or
     * exceptionally as soon as one is not. Must not block on the network for long.
     */
    CompletableFuture<Void> publish(List<GpuScrape> scrapes);
}
