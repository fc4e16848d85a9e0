package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.createBody;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** 64 clients race over real HTTP for the last units of a pool: exactly the capacity is confirmed. */
@ExtendWith(KafkaBrokerExtension.class)
class BookingRaceIT {

    private static final int CLIENTS = 64;
    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker broker) {
        app = BookingApp.shared(broker);
    }

    @Test
    void shouldConfirmExactlyTheLastFreeUnitsWhen64ClientsRaceForThem() throws Exception {
        Instant start = hourFromNow(200);
        Instant end = start.plusSeconds(4 * 3600);
        assertThat(app.post(TEAM_B, createBody("h200", 5, start, end, "team-b")).statusCode())
                .isEqualTo(201);

        List<HttpResponse<String>> answers = race(start, end);

        long confirmed = answers.stream().filter(r -> r.statusCode() == 201).count();
        List<Integer> others = answers.stream()
                .map(HttpResponse::statusCode)
                .filter(s -> s != 201)
                .toList();
        assertThat(confirmed).isEqualTo(3);
        assertThat(others).hasSize(CLIENTS - 3).containsOnly(409);
        assertThat(answers.stream().filter(r -> r.statusCode() == 409).map(r -> read(r.body())
                        .get("rule")))
                .containsOnly("CAPACITY");
        Map<String, Object> availability =
                read(app.get("/api/v1/pools/h200/availability?from=" + start + "&to=" + end + "&step=PT1H", TEAM_A)
                        .body());
        assertThat((List<Map<String, Object>>) availability.get("slots"))
                .extracting(s -> s.get("free"))
                .containsOnly(0);
        List<Map<String, Object>> booked = (List<Map<String, Object>>) read(app.get(
                                "/api/v1/bookings?pool=h200&state=CONFIRMED&from=" + start + "&to=" + end
                                        + "&limit=500",
                                ADMIN)
                        .body())
                .get("items");
        assertThat(booked.stream().mapToInt(b -> (Integer) b.get("quantity")).sum())
                .isEqualTo(8);
    }

    /** Fires every request at once from its own thread, released together by a latch. */
    private static List<HttpResponse<String>> race(Instant start, Instant end) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(CLIENTS)) {
            for (int i = 0; i < CLIENTS; i++) {
                boolean teamA = i % 2 == 0;
                String body = createBody("h200", 1, start, end, teamA ? "team-a" : "team-b");
                futures.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                go.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return app.post(teamA ? TEAM_A : TEAM_B, body);
                        },
                        pool));
            }
            go.countDown();
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> f : futures) {
                answers.add(f.get());
            }
            return answers;
        }
    }
}
