package io.gpuaas.booking.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.gpuaas.events.Json;
import io.micronaut.core.annotation.Introspected;
import java.time.Instant;
import java.util.stream.Collectors;

/** Request bodies of the booking API, read strictly so every error names its field. */
public final class BookingRequests {

    /**
     * The events mapper, minus the coercions that would silently change what the caller asked for: {@code 1.5} or
     * {@code "2"} as a quantity is an error, not one or two units.
     */
    private static final ObjectMapper STRICT = Json.mapper().copy()
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);

    private BookingRequests() {
    }

    /**
     * {@code POST /api/v1/bookings}.
     *
     * @param pool      pool id from {@code GET /api/v1/pools}
     * @param quantity  units of the pool's resource
     * @param start     inclusive start (ISO-8601 instant)
     * @param end       exclusive end
     * @param namespace a namespace the caller's tenant owns
     * @param purpose   optional free text
     */
    @Introspected
    public record CreateBookingRequest(String pool, Integer quantity, Instant start, Instant end, String namespace,
                                       String purpose) {
    }

    /** {@code PATCH /api/v1/bookings/{id}}: the new window; a missing start keeps the current one. */
    @Introspected
    public record ChangeBookingRequest(Instant start, Instant end) {
    }

    /** Answer when the decision took longer than the bounded wait. */
    @Introspected
    public record Pending(String requestId, String bookingId, String status) {
    }

    static <T> T read(String body, Class<T> type) {
        if (body == null || body.isBlank()) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "a JSON body is required");
        }
        try {
            T value = STRICT.readValue(body, type);
            if (value == null) {
                throw ProblemException.badRequest("MALFORMED_JSON", "body", "a JSON object is required");
            }
            return value;
        } catch (MismatchedInputException e) {
            String field = e.getPath().stream().map(r -> r.getFieldName() == null ? "[" + r.getIndex() + "]" : r.getFieldName())
                    .collect(Collectors.joining("."));
            throw ProblemException.badRequest("INVALID_FIELD", field.isEmpty() ? "body" : field,
                    "cannot read " + (field.isEmpty() ? "the body" : field) + ": " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "malformed JSON: " + e.getOriginalMessage());
        }
    }

    static void require(Object value, String field) {
        if (value == null || value instanceof String s && s.isBlank()) {
            throw ProblemException.badRequest("REQUIRED", field, field + " is required");
        }
    }
}
