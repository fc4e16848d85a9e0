package io.gpuaas.system.e2e;

import static io.gpuaas.system.e2e.ClusterView.FLAVOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuaas.system.e2e.JsonHttp.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;

/**
 * team-a's calls to booking-service's {@code /api/v1/bookings}. A decision that outlasts the service's bounded wait
 * is answered {@code 202} (issue #3); the client then reads the booking until the decision shows, as a script would.
 */
final class BookingClient {

    private final JsonHttp http;
    private final String url;
    private final String token;

    BookingClient(JsonHttp http, String bookingServiceUrl, String token) {
        this.http = http;
        this.url = bookingServiceUrl + "/api/v1/bookings";
        this.token = token;
    }

    /** Books {@code quantity} units of the scenario's pool for team-a; returns the CONFIRMED booking. */
    JsonNode book(int quantity, Instant start, Instant end) {
        Answer answer = http.post(
                url,
                token,
                Map.of(
                        "pool",
                        FLAVOR,
                        "quantity",
                        quantity,
                        "start",
                        start.toString(),
                        "end",
                        end.toString(),
                        "namespace",
                        "team-a",
                        "purpose",
                        "e2e scenario"));
        assertThat(answer.status()).as(answer.raw()).isIn(201, 202);
        String id =
                answer.body().path(answer.status() == 201 ? "id" : "bookingId").asText();
        return decided(answer, id, b -> !"".equals(b.path("state").asText()));
    }

    /** Books {@code quantity} units of the scenario's pool for team-a from now; returns the booking as answered. */
    Answer bookNow(int quantity, Duration duration) {
        return http.post(
                url,
                token,
                Map.of(
                        "pool",
                        FLAVOR,
                        "quantity",
                        quantity,
                        "duration",
                        duration.toString(),
                        "namespace",
                        "team-a",
                        "purpose",
                        "book now"));
    }

    /** Ends booking {@code id} now ({@code POST .../end}); returns the answer. */
    Answer end(String id) {
        return http.post(url + "/" + id + "/end", token, Map.of());
    }

    /** Moves the end of booking {@code id}; returns the booking with its new end. */
    JsonNode shorten(String id, Instant end) {
        Answer answer = http.patch(url + "/" + id, token, Map.of("end", end.toString()));
        assertThat(answer.status()).as(answer.raw()).isIn(200, 202);
        return decided(answer, id, b -> end.equals(Instant.parse(b.path("end").asText())));
    }

    JsonNode get(String id) {
        Answer answer = http.get(url + "/" + id, token);
        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        return answer.body();
    }

    private JsonNode decided(Answer answer, String id, Predicate<JsonNode> decided) {
        if (answer.status() != 202) {
            return answer.body();
        }
        return await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> http.get(url + "/" + id, token), a -> a.status() == 200 && decided.test(a.body()))
                .body();
    }
}
