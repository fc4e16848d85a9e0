package io.gpuaas.metrics.kafka;

import io.gpuaas.events.gpu.GpuSample;
import io.gpuaas.events.gpu.GpuSampleCodec;
import io.gpuaas.metrics.metrics.PublishCounters;
import io.gpuaas.metrics.scrape.SampleSink;
import io.gpuaas.metrics.scrape.ScrapeTarget;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes GpuSamples to {@code gpuaas.gpu-samples} keyed by device, so every sample of one device lands in
 * one partition in scrape order. Records are encoded here, on the scrape's thread, by the topic's codec
 * ({@link GpuSampleCodec}, one writer per scrape), and handed to a byte producer. Sends are asynchronous; the
 * idempotent {@code acks=all} producer retries without duplicates, and failures are counted rather than blocking the
 * scrape loop.
 */
public final class GpuSamplePublisher implements SampleSink, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GpuSamplePublisher.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final GpuSampleCodec codec;
    private final PublishCounters counters;
    private final Callback callback;

    public GpuSamplePublisher(
            Producer<byte[], byte[]> producer, String topic, GpuSampleCodec codec, PublishCounters counters) {
        this.producer = producer;
        this.topic = topic;
        this.codec = codec;
        this.counters = counters;
        this.callback = (metadata, error) -> {
            if (error == null) {
                counters.acknowledged();
            } else {
                counters.failed();
                LOG.warn("GpuSample not published to {}: {}", topic, error.toString());
            }
        };
    }

    @Override
    public void publish(ScrapeTarget target, List<GpuSample> samples) {
        GpuSampleCodec.Writer writer = codec.writer();
        for (GpuSample sample : samples) {
            ProducerRecord<byte[], byte[]> record = writer.record(topic, sample);
            producer.send(record, callback);
        }
    }

    /** Blocks until every sample handed over so far is acknowledged or failed. */
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
