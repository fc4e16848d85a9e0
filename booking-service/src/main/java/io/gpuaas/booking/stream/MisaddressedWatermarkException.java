package io.gpuaas.booking.stream;

import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;

/** A {@link FeedWatermark} read from one partition that names another: the dead letter's reason. */
final class MisaddressedWatermarkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    MisaddressedWatermarkException(FeedWatermark mark, int readFrom) {
        super("a feed watermark for partition " + mark.partition() + " from " + mark.source()
                + " was read from partition " + readFrom);
    }
}
