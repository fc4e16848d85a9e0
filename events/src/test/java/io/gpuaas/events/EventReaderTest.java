package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class EventReaderTest {

    final MockProducer<byte[], byte[]> producer = DeadLetterPublisherTest.producer();
    final EventReader<GpuScrapeEvent> reader = EventReader.of(
            Topics.GPU_SAMPLES,
            new DeadLetterPublisher(producer, "gpuaas.dead-letter", "metrics-gateway", new PrometheusRegistry()));

    @Test
    void shouldReturnTheEventAndDeadLetterNothingWhenTheRecordIsGood() {
        GpuScrape scrape = EventSamples.gpuScrape();
        RecordHeaders headers = new RecordHeaders();
        byte[] body = Topics.GPU_SAMPLES.valueSerde().serializer().serialize("gpuaas.gpu-samples", headers, scrape);

        Optional<GpuScrapeEvent> read = reader.read(raw(scrape.key().getBytes(StandardCharsets.UTF_8), body, headers));

        assertThat(read).contains(scrape);
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void shouldDeadLetterAndReturnEmptyWhenTheBodyIsGarbage() {
        byte[] garbage = {(byte) 0xC3, 0x28, 0x00, 0x7F};
        Optional<GpuScrapeEvent> read = reader.read(raw(
                "n1".getBytes(StandardCharsets.UTF_8), garbage, EventSerdesTest.headers("io.gpuaas.gpu.scrape.v1")));

        assertThat(read).isEmpty();
        assertThat(producer.history()).singleElement().satisfies(letter -> {
            assertThat(letter.value()).isEqualTo(garbage);
            assertThat(DeadLetterPublisherTest.header(letter, DeadLetterPublisher.REASON))
                    .isEqualTo("BAD_JSON");
        });
    }

    @Test
    void shouldDeadLetterWithANullKeyWhenTheRecordHasNoKeyAndNoType() {
        Optional<GpuScrapeEvent> read =
                reader.read(raw(null, "{}".getBytes(StandardCharsets.UTF_8), new RecordHeaders()));

        assertThat(read).isEmpty();
        assertThat(producer.history()).singleElement().satisfies(letter -> {
            assertThat(letter.key()).isNull();
            assertThat(DeadLetterPublisherTest.header(letter, DeadLetterPublisher.REASON))
                    .isEqualTo("MISSING_TYPE");
        });
    }

    @Test
    void shouldReadAGarbageKeyWithoutFailingWhenTheKeyIsNotUtf8() {
        ConsumerRecord<byte[], byte[]> raw = raw(new byte[] {(byte) 0xFF, (byte) 0xFE}, null, new RecordHeaders());
        assertThat(reader.key(raw)).isNotNull();
        assertThat(reader.key(raw(null, null, new RecordHeaders()))).isNull();
    }

    private static ConsumerRecord<byte[], byte[]> raw(byte[] key, byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>(
                "gpuaas.gpu-samples",
                0,
                7,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                key,
                value,
                headers,
                Optional.empty());
    }
}
