package io.gpuaas.quota.kafka;

import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lease holder's proof that the Workload feed is live: a {@link FeedWatermark} to every partition of
 * {@code gpuaas.kueue-workloads} each {@link #PERIOD}, on the producer of the Workload records, so on each partition a
 * watermark follows every Workload record sent before it. Only while the Workload informer is watching: a watch that
 * is down or reconnecting misses Workloads, so the watermark stops and booking-service's no-show release waits
 * (its {@code feed-staleness}, 2 min by default, is four periods).
 */
public final class FeedWatermarks {

    /** How often the watermarks are written. */
    public static final Duration PERIOD = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(FeedWatermarks.class);

    private final Producer<String, WorkloadEvent> producer;
    private final String topic;
    private final String source;
    private final BooleanSupplier watching;
    private final Clock clock;

    /**
     * @param producer the producer the Workload records go through (the order on each partition is what counts)
     * @param topic    the Workload topic's full name
     * @param source   who writes, recorded in each watermark
     * @param watching whether the Workload informer is watching now
     * @param clock    the watermarks' time
     */
    public FeedWatermarks(
            Producer<String, WorkloadEvent> producer,
            String topic,
            String source,
            BooleanSupplier watching,
            Clock clock) {
        this.producer = producer;
        this.topic = topic;
        this.source = source;
        this.watching = watching;
        this.clock = clock;
    }

    /** One watermark to each partition, unless the informer is not watching; never throws (a scheduled task). */
    public void publish() {
        if (!watching.getAsBoolean()) {
            LOG.debug("no feed watermark: the Workload informer is not watching");
            return;
        }
        try {
            for (PartitionInfo partition : producer.partitionsFor(topic)) {
                FeedWatermark mark = new FeedWatermark(partition.partition(), source, clock.instant());
                producer.send(
                        new ProducerRecord<>(
                                topic, mark.partition(), WorkloadEvent.key(mark.namespace(), mark.name()), mark),
                        (metadata, error) -> {
                            if (error != null) {
                                LOG.warn(
                                        "cannot publish the feed watermark of partition {}: {}",
                                        mark.partition(),
                                        error.toString());
                            }
                        });
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot publish feed watermarks: {}", e.toString());
        }
    }
}
