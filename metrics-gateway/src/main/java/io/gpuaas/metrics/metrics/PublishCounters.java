package io.gpuaas.metrics.metrics;

import java.util.concurrent.atomic.LongAdder;

/** Outcomes of GpuSample sends, counted in producer callbacks. */
public final class PublishCounters {

    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();

    public void acknowledged() {
        acknowledged.increment();
    }

    public void failed() {
        failed.increment();
    }

    public long acknowledgedCount() {
        return acknowledged.sum();
    }

    public long failedCount() {
        return failed.sum();
    }
}
