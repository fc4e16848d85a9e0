package io.gpuaas.metrics.kafka;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.scrape.SampleSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes GpuScrapes to {@code gpuaas.gpu-samples}, one record per scrape keyed by node, so every scrape of one node
 * lands in one partition in order. Records are encoded on the caller's thread by the topic's codec
 * ({@link GpuScrapeCodec}, one writer per thread) and handed to a byte producer. Sends are asynchronous; the
 * idempotent {@code acks=all} producer retries without duplicates, and outcomes are counted per device sample
 * ({@link PublishCounters}) rather than blocking the caller. Thread-safe: scrape loops and the remote-write endpoint
 * share one publisher.
 */
public final class GpuScrapePublisher implements SampleSink, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GpuScrapePublisher.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final PublishCounters counters;
    private final ThreadLocal<GpuScrapeCodec.Writer> writers;

    public GpuScrapePublisher(
            Producer<byte[], byte[]> producer, String topic, GpuScrapeCodec codec, PublishCounters counters) {
        this.producer = producer;
        this.topic = topic;
        this.counters = counters;
        this.writers = ThreadLocal.withInitial(codec::writer);
    }

    /** Hands one scrape to the producer without waiting for Kafka; its devices are counted once Kafka answered. */
    @Override
    public void publish(GpuScrape scrape) {
        send(scrape, counted(scrape, null));
    }

    /**
     * Hands every scrape (e.g. the node groups of one remote-write request) to the producer, counted as by
     * {@link #publish}; the future completes when Kafka acknowledged all of them, or fails with the first error (the
     * others are still sent). Wait on it only where the caller must answer after Kafka did.
     */
    public CompletableFuture<Void> publishAll(List<GpuScrape> scrapes) {
        CompletableFuture<?>[] acks = new CompletableFuture<?>[scrapes.size()];
        for (int i = 0; i < acks.length; i++) {
            CompletableFuture<Void> ack = new CompletableFuture<>();
            acks[i] = ack;
            send(scrapes.get(i), counted(scrapes.get(i), ack));
        }
        return CompletableFuture.allOf(acks);
    }

    private void send(GpuScrape scrape, Callback callback) {
        try {
            producer.send(writers.get().record(topic, scrape), callback);
        } catch (RuntimeException e) {
            // The producer throws rather than calls back when it is closed or a record cannot be sent at all.
            callback.onCompletion(null, e);
        }
    }

    private Callback counted(GpuScrape scrape, CompletableFuture<Void> ack) {
        int devices = scrape.devices().size();
        return (metadata, error) -> {
            if (error == null) {
                counters.acknowledged(devices);
                if (ack != null) {
                    ack.complete(null);
                }
            } else {
                counters.failed(devices);
                LOG.warn("GpuScrape of {} not published to {}: {}", scrape.node(), topic, error.toString());
                if (ack != null) {
                    ack.completeExceptionally(error);
                }
            }
        };
    }

    /** Blocks until every scrape handed over so far is acknowledged or failed. */
    @Override
    public void flush() {
        producer.flush();
    }

    public PublishCounters counters() {
        return counters;
    }

    /** Sends what is buffered before closing, so a graceful shutdown loses no scraped sample. */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
