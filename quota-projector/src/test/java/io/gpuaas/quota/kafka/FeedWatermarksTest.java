package io.gpuaas.quota.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.Topics;
import io.gpuaas.events.workload.WorkloadEvent;
import io.gpuaas.events.workload.WorkloadEvent.FeedWatermark;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** quota-projector's proof that the Workload feed is live: a watermark per partition, only while it watches. */
class FeedWatermarksTest {

    private static final String TOPIC = Topics.KUEUE_WORKLOADS.name(Topics.DEFAULT_PREFIX);
    private static final Instant NOW = Instant.parse("2030-01-01T09:00:00Z");
    private static final Node NODE = new Node(0, "localhost", 9092);

    private final MockProducer<String, WorkloadEvent> producer = new MockProducer<>(
            new Cluster(
                    "test",
                    List.of(NODE),
                    IntStream.range(0, 3)
                            .mapToObj(p -> new PartitionInfo(TOPIC, p, NODE, new Node[] {NODE}, new Node[] {NODE}))
                            .toList(),
                    Set.of(),
                    Set.of()),
            true,
            null,
            new StringSerializer(),
            Topics.KUEUE_WORKLOADS.valueSerde().serializer());
    private final AtomicBoolean watching = new AtomicBoolean(true);
    private final FeedWatermarks watermarks =
            new FeedWatermarks(producer, TOPIC, "quota-projector-0", watching::get, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldWriteOneWatermarkToEachPartitionUnderAKeyNoWorkloadCanHaveWhenTheInformerWatches() {
        watermarks.publish();

        assertThat(producer.history()).hasSize(3).allSatisfy(r -> {
            FeedWatermark mark = (FeedWatermark) r.value();
            assertThat(r.partition()).isEqualTo(mark.partition());
            assertThat(r.key()).isEqualTo("gpuaas.io/feed-watermark-" + mark.partition());
            assertThat(mark.time()).isEqualTo(NOW);
            assertThat(mark.source()).isEqualTo("quota-projector-0");
        });
        assertThat(producer.history()).extracting(ProducerRecord::partition).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void shouldWriteNoWatermarkWhileTheInformerIsNotWatching() {
        watching.set(false);

        watermarks.publish();

        assertThat(producer.history()).isEmpty();
    }

    @Test
    void shouldKeepGoingWhenTheTopicCannotBeDescribed() {
        producer.partitionsForException = new org.apache.kafka.common.errors.TimeoutException("no metadata");

        watermarks.publish();
        producer.partitionsForException = null;
        watermarks.publish();

        assertThat(producer.history()).hasSize(3);
    }
}
