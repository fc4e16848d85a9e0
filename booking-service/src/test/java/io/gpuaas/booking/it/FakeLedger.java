package io.gpuaas.booking.it;

import static io.gpuaas.booking.it.BookingApp.ADMIN;
import static io.gpuaas.booking.it.BookingApp.TEAM_A;
import static io.gpuaas.booking.it.BookingApp.TEAM_B;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for metrics-gateway's ledger API on loopback, serving its contract ({@code GET /api/v1/usage} as JSON or
 * CSV, {@code GET /api/v1/usage/bookings/{id}/utilization}, {@code GET /api/v1/usage/fair-share} as JSON) with fixed
 * figures, after noting each call's path, bearer
 * token and Accept. It answers 401 to a token that is not one of the tests', so a forward without the caller's token
 * shows. Made-up ids and days ask for its failures: booking {@code missing} (404), tenant {@code team-b} asked by
 * team-a (403), from {@code 1999-01-01} (503 catching up), from {@code 1999-02-02} (a 500 with a stack trace).
 * Without an {@code Authorization} header it takes the OAuth proxy's forwarded token {@link #PROXY_TEAM_A} as team-a
 * (noted as {@code proxy:<token>}), as metrics-gateway does with the forwarded identity on.
 */
final class FakeLedger {

    /** A call the fake received. */
    record Call(String pathAndQuery, String authorization, String accept) {}

    /** The forwarded access token of a user the cluster's OAuth proxy signed in, a member of team-a. */
    static final String PROXY_TEAM_A = "sha256~alice";

    static final List<Call> CALLS = new CopyOnWriteArrayList<>();

    /** Yesterday (UTC), the day with two pools' figures. */
    static final LocalDate YESTERDAY = LocalDate.now(ZoneOffset.UTC).minusDays(1);

    private FakeLedger() {}

    static URI start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/api/v1/usage", FakeLedger::handle);
            server.start();
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The CSV the fake serves for any groupBy=day read with {@code Accept: text/csv}. */
    static String dayCsv() {
        return "tenant,day,pool,booked,admitted,busy,idle,reclaimed,released\r\n"
                + "team-a," + YESTERDAY + ",h200,8.000000,6.000000,4.250000,1.750000,0.000000,0.000000\r\n"
                + "team-a," + YESTERDAY + ",h200-mig-1g.18gb,1.500000,1.000000,0.500000,0.500000,0.000000,0.000000\r\n"
                + "team-a," + YESTERDAY.plusDays(1) + ",h200,2.000000,2.000000,1.000000,1.000000,0.000000,0.000000\r\n";
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery() == null
                ? ""
                : exchange.getRequestURI().getRawQuery();
        String forwarded = exchange.getRequestHeaders().getFirst("X-Forwarded-Access-Token");
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization == null && forwarded != null) {
            authorization = "proxy:" + forwarded;
        }
        String accept = exchange.getRequestHeaders().getFirst("Accept");
        CALLS.add(new Call(path + (query.isEmpty() ? "" : "?" + query), authorization, accept));
        String token = authorization == null
                ? ""
                : authorization.equals("proxy:" + PROXY_TEAM_A) ? TEAM_A : authorization.substring("Bearer ".length());
        if (!List.of(TEAM_A, TEAM_B, ADMIN).contains(token)) {
            problem(exchange, 401, "UNAUTHORIZED");
        } else if (path.endsWith("/utilization")) {
            utilization(exchange, path);
        } else if (path.endsWith("/fair-share")) {
            send(exchange, 200, "application/json", fairShare(token, query));
        } else if (query.contains("from=1999-01-01")) {
            problem(exchange, 503, "LEDGER_CATCHING_UP");
        } else if (query.contains("from=1999-02-02")) {
            send(exchange, 500, "text/plain", "java.lang.IllegalStateException: ledger at LedgerInputs.java:42");
        } else if (token.equals(TEAM_A) && query.contains("tenant=team-b")) {
            problem(exchange, 403, "TENANT_NOT_OWNED");
        } else if (accept != null && accept.contains("text/csv")) {
            send(exchange, 200, "text/csv; charset=utf-8; header=present", dayCsv());
        } else if (query.contains("groupBy=booking")) {
            send(exchange, 200, "application/json", "{\"groupBy\":\"booking\",\"rows\":[" + bookingRows() + "]}");
        } else {
            send(exchange, 200, "application/json", "{\"groupBy\":\"day\",\"rows\":[" + dayRows() + "]}");
        }
    }

    private static String dayRows() {
        String[] lines = dayCsv().split("\r\n");
        List<String> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split(",");
            rows.add(String.format(
                    Locale.ROOT,
                    "{\"tenant\":\"%s\",\"day\":\"%s\",\"pool\":\"%s\",\"booked\":%s,\"admitted\":%s,\"busy\":%s,"
                            + "\"idle\":%s,\"reclaimed\":0,\"released\":0}",
                    f[0],
                    f[1],
                    f[2],
                    f[3],
                    f[4],
                    f[5],
                    f[6]));
        }
        return String.join(",", rows);
    }

    /** The month's report (of the month asked): two tenants for an admin, team-a's own row for team-a. */
    static String fairShare(String token, String query) {
        String a = "{\"tenant\":\"team-a\",\"booked\":11.5,\"used\":5.75,\"idle\":3.25,\"bookedCost\":40.25,"
                + "\"usedCost\":20.125,\"idleCost\":11.375,\"usedShare\":0.8}";
        String b = "{\"tenant\":\"team-b\",\"booked\":2.0,\"used\":1.4375,\"idle\":0.5,\"bookedCost\":7.0,"
                + "\"usedCost\":5.03125,\"idleCost\":1.75,\"usedShare\":0.2}";
        String rows = token.equals(ADMIN) ? a + "," + b : token.equals(TEAM_A) ? a : b;
        String month = query.replaceFirst("(^|.*&)month=([0-9]{4}-[0-9]{2}).*", "$2");
        return "{\"month\":\"" + month
                + "\",\"unit\":\"GPU-hours\",\"currency\":\"EUR\",\"fleet\":{\"booked\":13.5,\"used\":7.1875},"
                + "\"rows\":[" + rows + "]}";
    }

    /** Twelve bookings, their idle GPU-hours out of order, one with none. */
    static String bookingRows() {
        double[] idle = {0.5, 7.25, 0, 3.5, 12.0, 1.25, 9.75, 2.0, 4.5, 6.0, 0.75, 5.5};
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < idle.length; i++) {
            rows.add(String.format(
                    Locale.ROOT,
                    "{\"bookingId\":\"b-%02d\",\"tenant\":\"team-%s\",\"pool\":\"h200\",\"state\":\"COMPLETED\","
                            + "\"booked\":%s,\"admitted\":1,\"busy\":%s,\"idle\":%s,\"reclaimed\":0,\"released\":0}",
                    i,
                    i % 2 == 0 ? "a" : "b",
                    16.0,
                    16.0 - idle[i],
                    idle[i]));
        }
        return String.join(",", rows);
    }

    private static void utilization(HttpExchange exchange, String path) throws IOException {
        String id = path.substring("/api/v1/usage/bookings/".length(), path.length() - "/utilization".length());
        if (id.equals("missing")) {
            problem(exchange, 404, "BOOKING_NOT_FOUND");
            return;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        String points = String.format(
                Locale.ROOT,
                "{\"minute\":\"%s\",\"busy\":1.25,\"idle\":0.75},{\"minute\":\"%s\",\"busy\":0.5,\"idle\":1.5},"
                        + "{\"minute\":\"%s\",\"busy\":1.3,\"idle\":0.7}",
                now.minus(3, ChronoUnit.MINUTES),
                now.minus(2, ChronoUnit.MINUTES),
                now.minus(1, ChronoUnit.MINUTES));
        send(
                exchange,
                200,
                "application/json",
                "{\"bookingId\":\"" + id + "\",\"tenant\":\"team-a\",\"pool\":\"h200\",\"quantity\":2,\"asOf\":\"" + now
                        + "\",\"unit\":\"GPUs\",\"points\":[" + points + "]}");
    }

    private static void problem(HttpExchange exchange, int status, String rule) throws IOException {
        send(
                exchange,
                status,
                "application/problem+json",
                "{\"status\":" + status + ",\"rule\":\"" + rule + "\",\"detail\":\"" + rule.toLowerCase(Locale.ROOT)
                        + " (from the fake ledger)\",\"instance\":\"/internal\"}");
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
