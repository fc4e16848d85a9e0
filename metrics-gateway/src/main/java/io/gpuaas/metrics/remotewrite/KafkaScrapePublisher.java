package io.gpuaas.metrics.remotewrite;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Producer;

/**
 * Publishes the scrapes of a remote-write request to {@code gpuaas.gpu-samples}, keyed by node, encoded by the
 * topic's codec, and tells when Kafka has acknowledged all of them: the receiver answers 2xx only then, so a scrape
 * Prometheus was told is written survives a broker failure (the idempotent {@code acks=all} producer), and one that is
 * not is retried by Prometheus. Thread-safe (one codec writer per call; the producer is).
 */
public final class KafkaScrapePublisher implements ScrapePublisher, AutoCloseable {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final GpuScrapeCodec codec;

    public KafkaScrapePublisher(Producer<byte[], byte[]> producer, String topic, GpuScrapeCodec codec) {
        this.producer = producer;
        this.topic = topic;
        this.codec = codec;
    }

    @Override
    public CompletableFuture<Void> publish(List<GpuScrape> scrapes) {
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        AtomicInteger pending = new AtomicInteger(scrapes.size());
        GpuScrapeCodec.Writer writer = codec.writer();
        try {
            for (GpuScrape scrape : scrapes) {
                producer.send(writer.record(topic, scrape), (metadata, error) -> {
                    if (error != null) {
                        acknowledged.completeExceptionally(error);
                    } else if (pending.decrementAndGet() == 0) {
                        acknowledged.complete(null);
                    }
                });
            }
        } catch (RuntimeException e) {
            // send() throws when the producer cannot take the record at all (closed, metadata never came).
            acknowledged.completeExceptionally(e);
        }
        if (scrapes.isEmpty()) {
            acknowledged.complete(null);
        }
        return acknowledged;
    }

    /** Sends what is buffered before closing: a request still waiting for its acks gets them, or its 503. */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
