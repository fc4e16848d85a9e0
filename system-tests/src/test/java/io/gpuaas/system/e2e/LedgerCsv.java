package io.gpuaas.system.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** metrics-gateway's usage ledger as a tenant downloads it: {@code Accept: text/csv}, one row per booking. */
final class LedgerCsv {

    private LedgerCsv() {}

    /** {@code tenant}'s ledger by booking as CSV (yesterday to tomorrow, so a run across midnight is whole). */
    static Map<String, Map<String, String>> byBooking(E2eStack stack, String tenant) throws Exception {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.url("metrics-gateway") + "/api/v1/usage?from="
                        + today.minusDays(1) + "&to=" + today.plusDays(2) + "&groupBy=booking"))
                .header("Authorization", "Bearer " + stack.token(tenant))
                .header("Accept", "text/csv")
                .build();
        // The gateway is ready before its ledger has replayed its inputs: until then it answers 503 (caught up later).
        HttpResponse<String> response = await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()),
                        r -> r.statusCode() != 503);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
        List<String> lines = response.body().lines().toList();
        List<String> header = List.of(lines.get(0).split(","));
        Map<String, Map<String, String>> byBooking = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            // No field of these rows holds a comma or a quote (ids, pools, instants, numbers).
            String[] cells = line.split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), cells[i]);
            }
            byBooking.put(row.get("booking_id"), row);
        }
        return byBooking;
    }
}
