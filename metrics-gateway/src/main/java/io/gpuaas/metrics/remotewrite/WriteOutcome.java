package io.gpuaas.metrics.remotewrite;

import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;

/** What became of one remote-write request, and so how it is answered. */
public sealed interface WriteOutcome {

    /** Every DCGM reading of the request is acknowledged by Kafka: 204. */
    record Written(ScrapeAssembler.Mapped mapped) implements WriteOutcome {}

    /**
     * The request is refused with the reason's 4xx, which Prometheus does not retry. For {@link Reason#INVALID_SERIES}
     * the valid series were published first (as Prometheus' own receiver writes what it can of a partly bad request).
     *
     * @param detail what is wrong, in the sender's terms
     */
    record Refused(Reason reason, String detail) implements WriteOutcome {}

    /** Kafka did not acknowledge in time: 503, which Prometheus retries (readers may then see a scrape twice). */
    record Unavailable() implements WriteOutcome {}
}
