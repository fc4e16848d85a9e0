package io.gpuaas.metrics.remotewrite;

import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Prometheus remote-write 1.0 receiver: checks the request's encoding, decompresses and reads it, maps its DCGM
 * series to GpuScrapes and waits until Kafka has acknowledged them. The answer follows the spec's retry semantics:
 * 2xx only when everything readable was written, 4xx (never retried) for a request that cannot succeed as it is,
 * 5xx (retried) only when Kafka failed. Thread-safe: every request has its own decoder state.
 */
public final class RemoteWriteReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteWriteReceiver.class);
    private static final String WRITE_REQUEST = "prometheus.WriteRequest";

    /**
     * Decompression buffers large enough for a request of Prometheus' default 2,000 series (a larger request gets
     * its own); as many as requests usually run at once. The mapped scrapes hold copies, never slices, so a buffer is
     * free again once {@link #decode} returns.
     */
    private final ScratchBuffers scratch = new ScratchBuffers(16, 1 << 20);

    private final LabelSlots slots;
    private final int maxBodyBytes;
    private final Duration publishTimeout;
    private final ScrapePublisher publisher;
    private final RemoteWriteMetrics metrics;

    public RemoteWriteReceiver(
            LabelSlots slots,
            int maxBodyBytes,
            Duration publishTimeout,
            ScrapePublisher publisher,
            RemoteWriteMetrics metrics) {
        this.slots = slots;
        this.maxBodyBytes = maxBodyBytes;
        this.publishTimeout = publishTimeout;
        this.publisher = publisher;
        this.metrics = metrics;
    }

    /** Handles one request; {@code contentEncoding} and {@code contentType} are its headers, null when absent. */
    public WriteOutcome receive(String contentEncoding, String contentType, byte[] body) {
        ScrapeAssembler.Mapped mapped;
        try {
            checkEncoding(contentEncoding, contentType);
            mapped = decode(body, body.length);
        } catch (RemoteWriteRejection rejection) {
            metrics.rejected(rejection.reason());
            return new WriteOutcome.Refused(rejection.reason(), rejection.getMessage());
        }
        metrics.received(mapped);
        if (!mapped.scrapes().isEmpty() && !published(mapped)) {
            metrics.unavailable();
            return new WriteOutcome.Unavailable();
        }
        if (mapped.invalidSeries() > 0) {
            metrics.partlyWritten(mapped);
            metrics.rejected(Reason.INVALID_SERIES);
            return new WriteOutcome.Refused(
                    Reason.INVALID_SERIES,
                    mapped.invalidSeries() + " series dropped, the others written; first: " + mapped.firstInvalid());
        }
        metrics.written(mapped);
        return new WriteOutcome.Written(mapped);
    }

    /** Decompresses and maps {@code body[0, length)}; nothing is published. Public for the benchmark. */
    public ScrapeAssembler.Mapped decode(byte[] body, int length) {
        byte[] buffer = scratch.borrow();
        try {
            SnappyBlock.Block request = SnappyBlock.decompress(body, length, maxBodyBytes, buffer);
            ScrapeAssembler assembler = new ScrapeAssembler(slots);
            WriteRequestReader.read(request.bytes(), request.length(), assembler);
            return assembler.result();
        } finally {
            scratch.release(buffer);
        }
    }

    private boolean published(ScrapeAssembler.Mapped mapped) {
        try {
            publisher.publish(mapped.scrapes()).get(publishTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            LOG.warn(
                    "remote-write: {} scrapes not acknowledged, answering 503: {}",
                    mapped.scrapes().size(),
                    String.valueOf(cause));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Remote-write 1.0 sends {@code Content-Encoding: snappy} and {@code Content-Type: application/x-protobuf};
     * a 2.0 sender names its message ({@code proto=io.prometheus.write.v2.Request}) and must be told 415, which the
     * 2.0 spec makes its cue to fall back to 1.0. A missing Content-Type is taken as 1.0 (early senders).
     */
    static void checkEncoding(String contentEncoding, String contentType) {
        if (contentEncoding == null || !contentEncoding.trim().equalsIgnoreCase("snappy")) {
            throw new RemoteWriteRejection(
                    Reason.UNSUPPORTED_MEDIA_TYPE, "Content-Encoding must be snappy (remote-write 1.0)");
        }
        if (contentType == null) {
            return;
        }
        String[] parts = contentType.toLowerCase(Locale.ROOT).split(";");
        boolean protobuf = parts[0].trim().equals("application/x-protobuf");
        for (int i = 1; i < parts.length && protobuf; i++) {
            String parameter = parts[i].trim();
            if (parameter.startsWith("proto=")) {
                protobuf = parameter.substring("proto=".length()).equals(WRITE_REQUEST.toLowerCase(Locale.ROOT));
            }
        }
        if (!protobuf) {
            throw new RemoteWriteRejection(
                    Reason.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type must be application/x-protobuf with a " + WRITE_REQUEST + " (remote-write 1.0)");
        }
    }
}
