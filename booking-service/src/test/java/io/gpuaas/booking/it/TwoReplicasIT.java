package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gpuaas.events.TopicAdmin;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two booking-service instances side by side on one broker, as every deployment runs them: one Streams application
 * (the pools' partitions split between the two engines), each instance with its own feed. A client may reach either
 * one for any call: what one confirmed the other reads, an idempotency key binds on both, capacity holds across
 * them, and when one instance stops the other decides every pool.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TwoReplicasIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> POOLS =
            List.of("h200", "h200-mig-1g.18gb", "h200-mig-2g.35gb", "h200-mig-3g.71gb");
    // Longer than a rebalance after a graceful leave, far shorter than the group's session timeout (45 s).
    private static final Map<String, Object> CONFIG = Map.of("gpuaas.booking.decision-timeout", "PT15S");

    @Test
    void shouldServeEveryCallFromEitherReplicaAndDecideEveryPoolWhenOneStops(KafkaBroker broker) {
        String prefix = broker.uniquePrefix();
        String applicationId = broker.uniqueGroupId("booking");
        try (Admin admin = broker.admin()) {
            TopicAdmin.createAll(admin, prefix);
        }
        try (BookingApp first = BookingApp.start(broker, prefix, applicationId, CONFIG);
                BookingApp second = BookingApp.start(broker, prefix, applicationId, CONFIG)) {
            first.awaitReady();
            Instant start = hourFromNow(4);

            for (int i = 0; i < POOLS.size(); i++) {
                BookingApp taker = i % 2 == 0 ? first : second;
                BookingApp other = taker == first ? second : first;
                String location = confirm(taker, POOLS.get(i), 1, start);
                awaitReadable(other, location);
            }
            shouldBindTheKeyOnBothReplicas(first, second, start.plusSeconds(7200));
            shouldHoldCapacityAcrossReplicas(first, second, start.plusSeconds(14_400));

            first.close();
            for (String pool : POOLS) {
                awaitReadable(second, confirm(second, pool, 1, start.plusSeconds(21_600)));
            }
        }
    }

    /** A key used on one replica replays there and on the other, and binds the request on both. */
    private static void shouldBindTheKeyOnBothReplicas(BookingApp first, BookingApp second, Instant start) {
        Map<String, String> key = Map.of("Idempotency-Key", "two-replicas-1");
        String body = createBody("h200-mig-1g.18gb", 2, start, start.plusSeconds(3600), "team-a");
        HttpResponse<String> original = first.send("POST", "/api/v1/bookings", TEAM_A, body, key);
        assertThat(original.statusCode()).as(original.body()).isEqualTo(201);
        awaitReadable(second, original.headers().firstValue("Location").orElseThrow());

        // Another pool may sit on another partition, whose decider never saw the key: the edge refuses it.
        HttpResponse<String> otherPool = second.send(
                "POST",
                "/api/v1/bookings",
                TEAM_A,
                createBody("h200-mig-2g.35gb", 2, start, start.plusSeconds(3600), "team-a"),
                key);
        assertThat(otherPool.statusCode()).as(otherPool.body()).isEqualTo(422);
        assertThat(read(otherPool.body())).containsEntry("rule", "IDEMPOTENCY_MISMATCH");

        HttpResponse<String> retried = second.send("POST", "/api/v1/bookings", TEAM_A, body, key);
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
        assertThat(read(retried.body()).get("id"))
                .isEqualTo(read(original.body()).get("id"));
    }

    /** The pool's one writer decides for both replicas: what one filled, the other cannot overbook. */
    private static void shouldHoldCapacityAcrossReplicas(BookingApp first, BookingApp second, Instant start) {
        confirm(first, "h200-mig-3g.71gb", 6, start);
        HttpResponse<String> refused =
                second.post(TEAM_B, createBody("h200-mig-3g.71gb", 1, start, start.plusSeconds(3600), "team-b"));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(read(refused.body())).containsEntry("rule", "CAPACITY");
    }

    /** Books {@code quantity} units of {@code pool} for an hour through {@code app}: 201; its location. */
    private static String confirm(BookingApp app, String pool, int quantity, Instant start) {
        HttpResponse<String> created =
                app.post(TEAM_A, createBody(pool, quantity, start, start.plusSeconds(3600), "team-a"));
        assertThat(created.statusCode())
                .as("%s on %s: %s", pool, app.server.getURI(), created.body())
                .isEqualTo(201);
        return created.headers().firstValue("Location").orElseThrow();
    }

    private static void awaitReadable(BookingApp app, String location) {
        await().atMost(WAIT).until(() -> app.get(location, TEAM_A).statusCode() == 200);
        assertThat(read(app.get(location, TEAM_A).body())).containsEntry("state", "CONFIRMED");
    }
}
