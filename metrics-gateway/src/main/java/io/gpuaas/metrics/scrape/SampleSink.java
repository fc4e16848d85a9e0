package io.gpuaas.metrics.scrape;

import io.gpuaas.events.gpu.GpuScrape;

/** Where scrapes go: Kafka in the service, a list in tests. */
@FunctionalInterface
public interface SampleSink {

    /** Hands over one scrape of one node; must not block on the network for long. */
    void publish(GpuScrape scrape);

    /** Sends what is buffered, and waits for it; called when this replica stops leading and when scraping stops. */
    default void flush() {}
}
