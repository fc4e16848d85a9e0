package io.gpuaas.metrics.metrics;

import java.util.concurrent.atomic.LongAdder;

/** Outcomes of GpuScrape sends in device samples (a scrape of eight GPUs counts eight), counted in producer callbacks. */
public final class PublishCounters {

    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();

    public void acknowledged(int samples) {
        acknowledged.add(samples);
    }

    public void failed(int samples) {
        failed.add(samples);
    }

    public long acknowledgedCount() {
        return acknowledged.sum();
    }

    public long failedCount() {
        return failed.sum();
    }
}
