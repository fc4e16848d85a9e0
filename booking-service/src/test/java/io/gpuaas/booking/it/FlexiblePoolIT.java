package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;
import static io.gpuaas.booking.it.BookingApp.hourFromNow;
import static io.gpuaas.booking.it.BookingApp.json;
import static io.gpuaas.booking.it.BookingApp.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import io.gpuaas.testing.kafka.KafkaBroker;
import io.gpuaas.testing.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A flexible pool end to end on the real broker and HTTP: mixed profiles placed on one GPU and shown in the answer and
 * in GET, 24 clients racing for the last units, and a restart on an empty state directory that rebuilds the
 * placements from the changelog before deciding again. The catalog is the test's own ({@code h200-flex}: gpu-node-3
 * with 2 GPUs).
 */
@ExtendWith(KafkaBrokerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlexiblePoolIT {

    private static final String FLEX = "h200-flex";
    private static final int CLIENTS = 24;
    private static KafkaBroker broker;
    private static Map<String, Object> settings;
    private static BookingApp app;

    @BeforeAll
    static void start(KafkaBroker kafka) throws IOException {
        broker = kafka;
        Path pools = Files.createTempFile("flexible-pools", ".json");
        Files.writeString(
                pools,
                new PoolCatalog(List.of(
                                new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null),
                                Pool.flexible(FLEX, FLEX, "NVIDIA H200", null, List.of(new PoolNode("gpu-node-3", 2)))))
                        .toJson());
        settings = Map.of(
                "gpuaas.pools-file",
                pools.toString(),
                "gpuaas.booking.http.requests-per-second",
                50,
                "gpuaas.booking.decision-timeout",
                "PT15S");
        app = BookingApp.start(broker, settings);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static String body(String profile, int quantity, Instant start, Instant end, String namespace) {
        Map<String, Object> fields = new HashMap<>(Map.of(
                "pool", FLEX,
                "quantity", quantity,
                "start", start.toString(),
                "end", end.toString(),
                "namespace", namespace));
        if (profile != null) {
            fields.put("profile", profile);
        }
        return json(fields);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> placement(Map<String, Object> booking) {
        return (List<Map<String, Object>>) booking.get("placement");
    }

    @Test
    @Order(1)
    void shouldPlaceMixedProfilesOnOneGpuAndShowThePlacementWhenBooked() {
        Instant start = hourFromNow(3);
        Instant end = start.plusSeconds(7200);

        HttpResponse<String> three = app.post(TEAM_A, body("3g.71gb", 1, start, end, "team-a"));
        HttpResponse<String> ones = app.post(TEAM_B, body("1g.18gb", 4, start, end, "team-b"));

        assertThat(three.statusCode()).as(three.body()).isEqualTo(201);
        assertThat(ones.statusCode()).as(ones.body()).isEqualTo(201);
        Map<String, Object> threeBooking = read(three.body());
        assertThat(threeBooking)
                .containsEntry("resource", "nvidia.com/mig-3g.71gb")
                .containsEntry("flavor", FLEX);
        assertThat(placement(threeBooking))
                .containsExactly(Map.of("node", "gpu-node-3", "gpu", 0, "profile", "3g.71gb", "start", 4));
        List<Map<String, Object>> onesPlaced = placement(read(ones.body()));
        assertThat(onesPlaced)
                .hasSize(4)
                .allSatisfy(u -> assertThat(u).containsEntry("gpu", 0).containsEntry("profile", "1g.18gb"));
        assertThat(onesPlaced).extracting(u -> (Integer) u.get("start")).containsExactlyInAnyOrder(0, 1, 2, 3);

        String location = ones.headers().firstValue("Location").orElseThrow();
        assertThat(placement(read(app.get(location, TEAM_B).body()))).isEqualTo(onesPlaced);
    }

    @Test
    @Order(2)
    void shouldAnswer422NamingTheBookableProfilesWhenTheProfileIsNotOne() {
        Instant start = hourFromNow(5);

        HttpResponse<String> refused = app.post(TEAM_A, body("5g.99gb", 1, start, start.plusSeconds(3600), "team-a"));

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        Map<String, Object> problem = read(refused.body());
        assertThat(problem).containsEntry("rule", "INVALID_PROFILE").containsEntry("field", "profile");
        assertThat((String) problem.get("detail")).contains("1g.18gb", "3g.71gb", "7g.141gb");
    }

    @Test
    @Order(3)
    void shouldConfirmExactlyTheUnitsThatFitWhen24ClientsRaceForTheLastGpu() throws Exception {
        Instant start = hourFromNow(20);
        Instant end = start.plusSeconds(4 * 3600);
        HttpResponse<String> whole = app.post(TEAM_B, body(null, 1, start, end, "team-b"));
        assertThat(whole.statusCode()).isEqualTo(201);
        int wholeGpu = (Integer) placement(read(whole.body())).getFirst().get("gpu");
        int otherGpu = 1 - wholeGpu;

        List<HttpResponse<String>> answers = race(body("3g.71gb", 1, start, end, "team-a"));

        List<HttpResponse<String>> confirmed =
                answers.stream().filter(r -> r.statusCode() == 201).toList();
        assertThat(confirmed).hasSize(2);
        assertThat(confirmed.stream().map(r -> placement(read(r.body())).getFirst()))
                .containsExactlyInAnyOrder(
                        Map.of("node", "gpu-node-3", "gpu", otherGpu, "profile", "3g.71gb", "start", 0),
                        Map.of("node", "gpu-node-3", "gpu", otherGpu, "profile", "3g.71gb", "start", 4));
        assertThat(answers.stream().filter(r -> r.statusCode() != 201).map(r -> read(r.body())
                        .get("rule")))
                .hasSize(CLIENTS - 2)
                .containsOnly("CAPACITY");
        List<Map<String, Object>> booked = (List<Map<String, Object>>) read(app.get(
                                "/api/v1/bookings?pool=" + FLEX + "&state=CONFIRMED&from=" + start + "&to=" + end
                                        + "&limit=500",
                                ADMIN)
                        .body())
                .get("items");
        assertThat(booked).hasSize(3);
    }

    @Test
    @Order(4)
    void shouldRebuildPlacementsAndPlaceConsistentlyWhenRestartedOnAnEmptyStateDirectory() {
        Instant start = hourFromNow(40);
        Instant end = start.plusSeconds(3600);
        Map<String, Object> three =
                read(app.post(TEAM_A, body("3g.71gb", 1, start, end, "team-a")).body());
        assertThat(read(app.post(TEAM_B, body(null, 1, start, end, "team-b")).body()))
                .containsEntry("state", "CONFIRMED");
        assertThat(placement(three))
                .singleElement()
                .satisfies(u -> assertThat(u).containsEntry("gpu", 0).containsEntry("start", 4));

        app.close();
        // BookingApp.start gives the new instance an empty state directory: all it knows comes from the changelogs.
        app = BookingApp.start(broker, app.prefix, app.applicationId, settings);

        HttpResponse<String> four = app.post(TEAM_B, body("4g.71gb", 1, start, end, "team-b"));
        HttpResponse<String> anotherThree = app.post(TEAM_A, body("3g.71gb", 1, start, end, "team-a"));
        HttpResponse<String> whole = app.post(TEAM_A, body(null, 1, start, end, "team-a"));

        assertThat(four.statusCode()).as(four.body()).isEqualTo(201);
        assertThat(placement(read(four.body())))
                .containsExactly(Map.of("node", "gpu-node-3", "gpu", 0, "profile", "4g.71gb", "start", 0));
        assertThat(anotherThree.statusCode()).as(anotherThree.body()).isEqualTo(409);
        assertThat(whole.statusCode()).as(whole.body()).isEqualTo(409);
        assertThat(read(whole.body())).containsEntry("rule", "CAPACITY");
        assertThat(placement(read(
                        app.get("/api/v1/bookings/" + three.get("id"), TEAM_A).body())))
                .isEqualTo(placement(three));
    }

    /** Fires every request at once from its own thread, released together by a latch. */
    private static List<HttpResponse<String>> race(String body) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(CLIENTS)) {
            for (int i = 0; i < CLIENTS; i++) {
                futures.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                go.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return app.post(TEAM_A, body);
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
