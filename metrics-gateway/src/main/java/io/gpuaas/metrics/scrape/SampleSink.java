package io.gpuaas.metrics.scrape;

import io.gpuaas.events.gpu.GpuSample;
import java.util.List;

/** Where the samples of one scrape go: Kafka in the service, a list in tests. */
@FunctionalInterface
public interface SampleSink extends AutoCloseable {

    /** Hands over the samples of one scrape; must not block on the network for long. */
    void publish(ScrapeTarget target, List<GpuSample> samples);

    /** Sends what is buffered, and waits for it; called when this replica stops leading. */
    default void flush() {}

    /** Sends what is buffered; called once the scheduler's loops have ended. */
    @Override
    default void close() {}
}
