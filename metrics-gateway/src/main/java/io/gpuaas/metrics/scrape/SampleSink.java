package io.gpuaas.metrics.scrape;

import io.gpuaas.events.gpu.GpuSample;
import java.util.List;

/** Where the samples of one scrape go: Kafka in the service, a list in tests. */
@FunctionalInterface
public interface SampleSink {

    /** Hands over the samples of one scrape; must not block on the network for long. */
    void publish(ScrapeTarget target, List<GpuSample> samples);
}
