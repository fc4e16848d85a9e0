package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.DeserializationHandlerResponse;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class DeadLetterDeserializationHandlerTest {

    final MockProducer<byte[], byte[]> producer = DeadLetterPublisherTest.producer();
    final DeadLetterDeserializationHandler handler = new DeadLetterDeserializationHandler();

    DeadLetterDeserializationHandlerTest() {
        handler.configure(Map.of(
                StreamsConfig.APPLICATION_ID_CONFIG,
                "booking-decider",
                DeadLetterDeserializationHandler.PUBLISHER_CONFIG,
                new DeadLetterPublisher(producer, "gpuaas.dead-letter", "booking-decider", new PrometheusRegistry())));
    }

    @Test
    void shouldDeadLetterAndContinueWhenAStreamsSourceCannotDeserialize() {
        ConsumerRecord<byte[], byte[]> raw = DeadLetterPublisherTest.record(
                "gpuaas.booking-commands", "h200", "{", "io.gpuaas.booking.command.create.v1");

        DeserializationHandlerResponse response =
                handler.handle(context(raw), raw, new EventDecodingException("BAD_JSON", "unexpected end", null));

        assertThat(response).isEqualTo(DeserializationHandlerResponse.CONTINUE);
        assertThat(producer.history()).singleElement().satisfies(letter -> {
            assertThat(letter.value()).isEqualTo(raw.value());
            assertThat(DeadLetterPublisherTest.header(letter, DeadLetterPublisher.GROUP))
                    .isEqualTo("booking-decider");
        });
    }

    @Test
    void shouldFailTheTaskWhenTheDeadLetterCannotBeWritten() {
        producer.sendException = new TimeoutException("no broker");
        ConsumerRecord<byte[], byte[]> raw =
                DeadLetterPublisherTest.record("gpuaas.booking-commands", "h200", "{", null);

        assertThat(handler.handle(context(raw), raw, new EventDecodingException("MISSING_TYPE", "m", null)))
                .isEqualTo(DeserializationHandlerResponse.FAIL);
    }

    private static ErrorHandlerContext context(ConsumerRecord<byte[], byte[]> raw) {
        return new ErrorHandlerContext() {
            public String topic() {
                return raw.topic();
            }

            public int partition() {
                return raw.partition();
            }

            public long offset() {
                return raw.offset();
            }

            public Headers headers() {
                return raw.headers();
            }

            public String processorNodeId() {
                return "KSTREAM-SOURCE-0000000000";
            }

            public TaskId taskId() {
                return new TaskId(0, raw.partition());
            }

            public long timestamp() {
                return raw.timestamp();
            }

            public byte[] sourceRawKey() {
                return raw.key();
            }

            public byte[] sourceRawValue() {
                return raw.value();
            }
        };
    }
}
