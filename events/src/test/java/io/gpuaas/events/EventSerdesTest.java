package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.events.notice.Notice;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventSerdesTest {

    private static final String SCRAPE = EventTypes.typeOf(GpuScrape.class);

    static Stream<Arguments> everyType() {
        Map<Class<?>, Object> samples = EventSamples.all();
        return EventTypes.all().entrySet().stream().map(e -> Arguments.of(e.getKey(), samples.get(e.getValue())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyType")
    void shouldRoundTripWithCloudEventsHeadersWhenAnyTypeIsSerialized(String ceType, Object sample) {
        Serde<Object> serde = serdeFor(sample.getClass());
        RecordHeaders headers = new RecordHeaders();
        byte[] body = serde.serializer().serialize("t", headers, sample);

        Object back = serde.deserializer().deserialize("t", headers, body);

        assertThat(back).isEqualTo(sample);
        assertThat(CloudEvents.header(headers, CloudEvents.SPECVERSION)).isEqualTo("1.0");
        assertThat(CloudEvents.header(headers, CloudEvents.TYPE)).isEqualTo(ceType);
        assertThat(CloudEvents.header(headers, CloudEvents.ID)).hasSize(36);
        assertThat(CloudEvents.header(headers, CloudEvents.SOURCE)).startsWith("/gpuaas");
        assertThat(Instant.parse(CloudEvents.header(headers, CloudEvents.TIME))).isBeforeOrEqualTo(Instant.now());
        assertThat(CloudEvents.header(headers, CloudEvents.CONTENT_TYPE)).isEqualTo("application/json");
    }

    @Test
    void shouldWriteTheProcessSourceWhenAServiceSetsIt() {
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.setProcessSource("/gpuaas/booking-service");
        try {
            new CloudEventSerializer<>().serialize("t", headers, EventSamples.gpuScrape());
        } finally {
            CloudEvents.setProcessSource(CloudEvents.DEFAULT_SOURCE);
        }
        assertThat(CloudEvents.header(headers, CloudEvents.SOURCE)).isEqualTo("/gpuaas/booking-service");
    }

    @Test
    void shouldWriteDistinctVersion4IdsWhenSerializingRepeatedly() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            RecordHeaders headers = new RecordHeaders();
            new CloudEventSerializer<>().serialize("t", headers, EventSamples.gpuScrape());
            String id = CloudEvents.header(headers, CloudEvents.ID);
            assertThat(java.util.UUID.fromString(id).version()).isEqualTo(4);
            ids.add(id);
        }
        assertThat(ids).hasSize(1_000);
    }

    @Test
    void shouldWriteTheSameIdForEveryCopyOfANoticeWhenItIsSerializedTwice() {
        Notice notice = (Notice) EventSamples.all().get(Notice.NoShowWarning.class);
        RecordHeaders first = new RecordHeaders();
        RecordHeaders second = new RecordHeaders();

        Topics.NOTICES.valueSerde().serializer().serialize("t", first, notice);
        Topics.NOTICES.valueSerde().serializer().serialize("t", second, notice);

        String id = CloudEvents.header(first, CloudEvents.ID);
        assertThat(id).isEqualTo(CloudEvents.header(second, CloudEvents.ID));
        assertThat(java.util.UUID.fromString(id)).isEqualTo(CloudEventHeaders.idOf(notice.noticeId()));
        assertThat(java.util.UUID.fromString(id).version()).isEqualTo(3);
        RecordHeaders other = new RecordHeaders();
        Topics.NOTICES.valueSerde().serializer().serialize("t", other, (Notice)
                EventSamples.all().get(Notice.BookingEndingSoon.class));
        assertThat(CloudEvents.header(other, CloudEvents.ID)).isNotEqualTo(id);
    }

    @Test
    void shouldIgnoreUnknownFieldsWhenANewerProducerAddsThem() {
        String json = """
                {"time":"2026-11-21T17:30:00Z","node":"n1","futureField":{"nested":[1,2]},"anotherOne":"x",
                 "devices":[{"uuid":"GPU-1","utilization":0.5,"futureDeviceField":7}]}""";
        for (SchemaValidation mode : SchemaValidation.values()) {
            GpuScrapeEvent read = new CloudEventDeserializer<>(GpuScrapeEvent.class, mode)
                    .deserialize("t", headers(SCRAPE), bytes(json));
            assertThat(read).as(mode.name()).isInstanceOf(GpuScrape.class);
            assertThat(((GpuScrape) read).devices().getFirst().utilization()).isEqualTo(0.5);
        }
    }

    @Test
    void shouldFailWithMissingTypeWhenNoCeTypeHeader() {
        assertReason(
                () -> Topics.GPU_SAMPLES.valueSerde().deserializer().deserialize("t", new RecordHeaders(), bytes("{}")),
                "MISSING_TYPE");
        assertReason(
                () -> Topics.GPU_SAMPLES.valueSerde().deserializer().deserialize("t", bytes("{}")), "MISSING_TYPE");
    }

    @Test
    void shouldFailWithUnknownTypeWhenCeTypeIsNotOurs() {
        assertReason(() -> deserialize(BookingEvent.class, "io.gpuaas.booking.confirmed.v9", "{}"), "UNKNOWN_TYPE");
    }

    @Test
    void shouldFailWithWrongTypeWhenTheTypeBelongsToAnotherTopic() {
        assertReason(() -> deserialize(BookingEvent.class, SCRAPE, "{}"), "WRONG_TYPE");
    }

    @Test
    void shouldFailWithBadJsonWhenTheBodyIsNotJsonInEveryMode() {
        for (SchemaValidation mode : SchemaValidation.values()) {
            assertReason(
                    () -> new CloudEventDeserializer<>(GpuScrapeEvent.class, mode)
                            .deserialize("t", headers(SCRAPE), bytes("\u0000\u0001garbage")),
                    "BAD_JSON");
        }
    }

    @Test
    void shouldFailWithSchemaViolationNamingTheFieldWhenARequiredFieldIsMissing() {
        String noUuid = "{\"time\":\"2026-11-21T17:30:00Z\",\"node\":\"n1\",\"devices\":[{\"gpuIndex\":1}]}";
        assertThatThrownBy(() -> new CloudEventDeserializer<>(GpuScrapeEvent.class, SchemaValidation.FULL)
                        .deserialize("t", headers(SCRAPE), bytes(noUuid)))
                .isInstanceOfSatisfying(EventDecodingException.class, e -> assertThat(e.reason())
                        .isEqualTo("SCHEMA_VIOLATION"))
                .hasMessageContaining("uuid");
    }

    @Test
    void shouldFailWithSchemaViolationWhenAnEnumValueIsUnknown() {
        String body = "{\"booking\":{\"id\":\"b\",\"tenant\":\"t\",\"namespace\":\"n\",\"pool\":\"p\",\"flavor\":\"f\","
                + "\"resource\":\"r\",\"quantity\":1,\"start\":\"2026-11-22T09:00:00Z\","
                + "\"end\":\"2026-11-22T10:00:00Z\",\"state\":\"PENDING\",\"version\":1},"
                + "\"time\":\"2026-11-22T09:00:00Z\"}";
        assertReason(() -> deserialize(BookingEvent.class, "io.gpuaas.booking.activated.v1", body), "SCHEMA_VIOLATION");
    }

    @Test
    void shouldReadATombstoneAsNullWhenTheValueIsNull() {
        assertThat(Topics.BOOKINGS
                        .valueSerde()
                        .deserializer()
                        .deserialize("t", headers("io.gpuaas.booking.state.v1"), (byte[]) null))
                .isNull();
    }

    @Test
    void shouldValidateFullyOnEveryTopicWhenARecordTakesTheGenericPath() {
        for (TopicSpec<?, ?> spec : Topics.all()) {
            genericReader(spec)
                    .ifPresent(
                            d -> assertThat(d.validation()).as(spec.baseName()).isEqualTo(SchemaValidation.FULL));
        }
        assertThat(genericReader(Topics.GPU_SAMPLES))
                .as("the samples codec's fallback")
                .isPresent();
    }

    /** The generic reader of a topic's values: its own deserializer, or the one its codec falls back to. */
    static Optional<CloudEventDeserializer<?>> genericReader(TopicSpec<?, ?> spec) {
        return switch (spec.valueSerde().deserializer()) {
            case CloudEventDeserializer<?> d -> Optional.of(d);
            case GpuScrapeCodec.Reader codec -> Optional.of(codec.generic());
            default -> Optional.empty();
        };
    }

    @SuppressWarnings("unchecked")
    private static Serde<Object> serdeFor(Class<?> recordClass) {
        return (Serde<Object>) (Serde<?>) EventSerdes.of(recordClass);
    }

    private static <T> T deserialize(Class<T> base, String ceType, String json) {
        return EventSerdes.of(base).deserializer().deserialize("t", headers(ceType), bytes(json));
    }

    static RecordHeaders headers(String ceType) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CloudEvents.TYPE, ceType.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void assertReason(Runnable action, String reason) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(EventDecodingException.class, e -> assertThat(e.reason())
                .isEqualTo(reason));
    }
}
