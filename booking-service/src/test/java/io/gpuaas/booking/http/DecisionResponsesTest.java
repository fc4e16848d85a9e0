package io.gpuaas.booking.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.Json;
import io.gpuaas.events.booking.BookingEvent;
import io.gpuaas.events.booking.Interval;
import io.micronaut.http.MutableHttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DecisionResponsesTest {

    private static final Instant T = Instant.parse("2030-01-01T10:00:00Z");

    @Test
    void shouldAnswer202WithLocationWhenTheDecisionIsStillPending() {
        MutableHttpResponse<?> response =
                DecisionResponses.toResponse(Optional.empty(), "r-1", "b-1", "/api/v1/bookings");

        assertThat(response.code()).isEqualTo(202);
        assertThat(response.getHeaders().get("Location")).isEqualTo("/api/v1/bookings/b-1");
        assertThat(response.body()).isEqualTo(new BookingRequests.Pending("r-1", "b-1", "PENDING"));
    }

    @Test
    void shouldAnswer409ProblemWithConflictsWhenCapacityIsShort() throws Exception {
        BookingEvent rejected = new BookingEvent.BookingRejected(
                "r-1",
                "b-1",
                "h200",
                "team-a",
                "CAPACITY",
                "only 2 free",
                List.of(new Interval(T, T.plusSeconds(3600), 6)),
                T.plusSeconds(3600),
                T);

        MutableHttpResponse<?> response =
                DecisionResponses.toResponse(Optional.of(rejected), "r-1", "b-1", "/api/v1/bookings");

        assertThat(response.code()).isEqualTo(409);
        assertThat(response.getContentType().orElseThrow().toString()).isEqualTo("application/problem+json");
        Map<?, ?> problem = Json.mapper().readValue((String) response.body(), Map.class);
        assertThat(problem.get("rule")).isEqualTo("CAPACITY");
        assertThat(problem.get("field")).isEqualTo("quantity");
        assertThat(problem.get("earliestStart")).isEqualTo("2030-01-01T11:00:00Z");
        assertThat((List<?>) problem.get("conflicts")).hasSize(1);
    }
}
