package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.DeadLetterTopic;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.events.Topics;
import io.gpuaas.events.booking.BookingCommand;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * booking-service on a real broker: a null command, a command that breaks its schema, and a null on booking-events
 * (the HTTP feed's topic) are dead-lettered with their key and reason, and the pool's next booking is decided and
 * answered as usual.
 */
@ExtendWith(KafkaBrokerExtension.class)
class UntrustedRecordsIT {

    @Test
    void shouldDeadLetterNullAndSchemaBreakingRecordsAndDecideThePoolsNextBookingWhenTheyArriveFirst(KafkaBroker broker)
            throws Exception {
        BookingApp app = BookingApp.shared(broker);
        String commands = Topics.BOOKING_COMMANDS.name(app.prefix);
        String events = Topics.BOOKING_EVENTS.name(app.prefix);
        long sent = Instant.now().minusSeconds(5).toEpochMilli();
        Instant start = hourFromNow(2_000);
        BookingCommand emptyNamespace = new BookingCommand.CreateBooking(
                "req-untrusted",
                null,
                new Caller("mallory", "team-a", false),
                "h200",
                "b-untrusted",
                "",
                1,
                start,
                start.plusSeconds(3600),
                null,
                Instant.now());
        RecordHeaders headers = new RecordHeaders();
        byte[] body = Topics.BOOKING_COMMANDS.valueSerde().serializer().serialize(commands, headers, emptyNamespace);

        RecordMetadata nullCommand;
        RecordMetadata badCommand;
        RecordMetadata nullEvent;
        try (KafkaProducer<byte[], byte[]> raw =
                new KafkaProducer<>(broker.clientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            nullCommand = raw.send(new ProducerRecord<>(commands, null, sent, bytes("h200"), (byte[]) null))
                    .get();
            badCommand = raw.send(new ProducerRecord<>(commands, null, sent, bytes("h200"), body, headers))
                    .get();
            nullEvent = raw.send(new ProducerRecord<>(events, null, sent, bytes("b-poison"), (byte[]) null))
                    .get();
        }
        HttpResponse<String> next = app.post(TEAM_A, createBody("h200", 1, start, start.plusSeconds(3600), "team-a"));

        assertThat(next.statusCode()).as(next.body()).isEqualTo(201);
        Map<String, ConsumerRecord<byte[], byte[]>> letters = DeadLetterTopic.awaitLetters(
                broker,
                Topics.DEAD_LETTER.name(app.prefix),
                List.of(where(nullCommand), where(badCommand), where(nullEvent)));
        assertLetter(letters.get(where(nullCommand)), "h200", "TOMBSTONE", nullCommand, sent);
        assertLetter(letters.get(where(badCommand)), "h200", "SCHEMA_VIOLATION", badCommand, sent);
        assertThat(letters.get(where(badCommand)).value()).isEqualTo(body);
        assertThat(DeadLetterTopic.header(letters.get(where(badCommand)).headers(), DeadLetterPublisher.ERROR))
                .contains("namespace");
        assertLetter(letters.get(where(nullEvent)), "b-poison", "TOMBSTONE", nullEvent, sent);
    }

    private static void assertLetter(
            ConsumerRecord<byte[], byte[]> letter, String key, String reason, RecordMetadata original, long sent) {
        assertThat(new String(letter.key(), UTF_8)).isEqualTo(key);
        DeadLetterTopic.assertHeaders(
                letter.headers(), reason, original.topic(), original.partition(), original.offset(), sent);
    }

    private static String where(RecordMetadata written) {
        return DeadLetterTopic.where(written.topic(), written.partition(), written.offset());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
