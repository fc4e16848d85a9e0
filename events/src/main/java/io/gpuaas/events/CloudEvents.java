package io.gpuaas.events;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** CloudEvents 1.0 Kafka protocol binding, binary mode: attribute header names and helpers. */
public final class CloudEvents {

    /** Header of the CloudEvents spec version, always {@code 1.0}. */
    public static final String SPECVERSION = "ce_specversion";
    /** Header of the event id: a random UUID per record, or the name-based UUID of an {@link IdentifiedEvent}'s id. */
    public static final String ID = "ce_id";
    /** Header naming the producing service, e.g. {@code /gpuaas/booking-service}. */
    public static final String SOURCE = "ce_source";
    /** Header of the event type, e.g. {@code io.gpuaas.booking.confirmed.v1}; see {@link EventTypes}. */
    public static final String TYPE = "ce_type";
    /** Header of the time the record was serialized, ISO-8601 UTC. */
    public static final String TIME = "ce_time";
    /** Header of the optional CloudEvents subject (not written by gpuaas producers today). */
    public static final String SUBJECT = "ce_subject";
    /** Header of the body's media type (binary mode maps {@code datacontenttype} to it). */
    public static final String CONTENT_TYPE = "content-type";
    /** The media type of every gpuaas body. */
    public static final String JSON = "application/json";

    /** The {@code ce_source} written until a service sets its own with {@link #setProcessSource}. */
    public static final String DEFAULT_SOURCE = "/gpuaas";

    /** The {@code ce_source} header of this process, built once per {@link #setProcessSource}. */
    private static volatile Header processSource = CloudEventHeaders.header(SOURCE, DEFAULT_SOURCE);

    private CloudEvents() {}

    /** Sets the {@code ce_source} every serializer in this process writes, e.g. {@code /gpuaas/booking-service}. */
    public static void setProcessSource(String source) {
        processSource = CloudEventHeaders.header(SOURCE, source);
    }

    static Header sourceHeader() {
        return processSource;
    }

    /** The last value of header {@code name} as UTF-8, or null. */
    public static String header(Headers headers, String name) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
