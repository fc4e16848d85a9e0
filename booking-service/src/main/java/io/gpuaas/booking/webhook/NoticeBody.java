package io.gpuaas.booking.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.CloudEvents;
import io.gpuaas.events.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a webhook receives: the notice as a CloudEvent in structured mode ({@code application/cloudevents+json}),
 * so the signed body alone says what the event is (its id, type, source and time are inside the signature, which
 * headers of binary mode would not be). {@code subject} is the record key (the booking id); {@code data} the notice
 * exactly as on {@code gpuaas.notices}.
 */
public final class NoticeBody {

    /** The request's content type. */
    public static final String MEDIA_TYPE = "application/cloudevents+json";

    private NoticeBody() {}

    /** The CloudEvent JSON of {@code record}, a decoded notice (its value is valid JSON). */
    public static byte[] of(ConsumerRecord<byte[], byte[]> record) {
        try {
            ObjectNode event = Json.mapper().createObjectNode();
            event.put("specversion", "1.0");
            event.put("id", ceId(record));
            event.put("source", CloudEvents.header(record.headers(), CloudEvents.SOURCE));
            event.put("type", CloudEvents.header(record.headers(), CloudEvents.TYPE));
            String time = CloudEvents.header(record.headers(), CloudEvents.TIME);
            if (time != null) {
                event.put("time", time);
            }
            if (record.key() != null) {
                event.put("subject", new String(record.key(), StandardCharsets.UTF_8));
            }
            event.put("datacontenttype", CloudEvents.JSON);
            JsonNode data = Json.mapper().readTree(record.value());
            event.set("data", data);
            return Json.mapper().writeValueAsBytes(event);
        } catch (IOException e) {
            throw new IllegalArgumentException("notice at " + where(record) + " is not JSON", e);
        }
    }

    /**
     * The {@code webhook-id} of the notice's delivery to {@code webhookId}: the same for every attempt, every
     * replica and every re-delivery after a restart, different per endpoint; receivers deduplicate by it.
     */
    public static String messageId(ConsumerRecord<byte[], byte[]> record, String webhookId) {
        String name = ceId(record) + "/" + webhookId;
        return "msg_" + UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }

    /** The record's {@code ce_id} (deterministic for notices), or where it was read when it has none. */
    static String ceId(ConsumerRecord<byte[], byte[]> record) {
        String id = CloudEvents.header(record.headers(), CloudEvents.ID);
        return id != null ? id : where(record);
    }

    static String where(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
