package io.gpuaas.metrics.http;

import static io.gpuaas.metrics.ledger.LedgerRecords.POOLS;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.Json;
import io.gpuaas.kit.config.SecuritySettings;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.metrics.config.LedgerSettings;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.ledger.LedgerInputs;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.gpuaas.metrics.ledger.PublishedDays;
import io.gpuaas.metrics.ledger.Sealing;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.security.authentication.Authentication;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The usage API before the ledger feed has caught up: a retryable 503, not an empty ledger. */
class UsageControllerTest {

    private final LedgerSnapshots snapshots = new LedgerSnapshots(
            new LedgerInputs(POOLS, 0.05, Duration.ofSeconds(30)),
            new PublishedDays(),
            new Sealing(Duration.ofHours(1), Duration.ZERO));
    private final UsageController controller = new UsageController(
            snapshots,
            new CallerResolver(
                    new SecuritySettings(null, "gpuaas-local", "gpuaas", null, "tenant", "namespaces", "admin", "x")),
            new LedgerSettings(
                    true,
                    Duration.ofMinutes(1),
                    366,
                    Duration.ofSeconds(5),
                    Duration.ofHours(1),
                    Duration.ofMinutes(5)),
            new Costs(POOLS));
    private final Authentication tenant = Authentication.build("alice", List.of(), Map.of("tenant", "team-a"));

    private HttpResponse<?> usage(String groupBy, String accept) {
        return controller.usage(
                "2026-11-01", "2026-11-02", groupBy, null, accept, tenant, HttpRequest.GET("/api/v1/usage"));
    }

    @Test
    void shouldAnswer503LedgerCatchingUpWithRetryAfterWhenTheLedgerFeedHasNotCaughtUp() throws Exception {
        for (HttpResponse<?> response : List.of(usage("day", "application/json"), usage("booking", "text/csv"))) {
            assertThat(response.getStatus().getCode()).isEqualTo(503);
            assertThat(response.getHeaders().get("Retry-After")).isEqualTo("5");
            assertThat(response.getContentType())
                    .hasValueSatisfying(t -> assertThat(t.toString()).isEqualTo("application/problem+json"));
            assertThat(Json.mapper()
                            .readTree(response.body().toString())
                            .get("rule")
                            .asText())
                    .isEqualTo("LEDGER_CATCHING_UP");
        }
    }

    @Test
    void shouldAnswer200OnceTheFirstSnapshotExists() {
        snapshots.refresh();

        assertThat(usage("day", "application/json").getStatus().getCode()).isEqualTo(200);
    }
}
