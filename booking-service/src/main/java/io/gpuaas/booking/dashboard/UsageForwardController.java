package io.gpuaas.booking.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.booking.http.CallerGuard;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.config.ForwardedIdentitySettings;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Predicate;

/**
 * The dashboard's usage reads on its own origin: metrics-gateway's ledger, forwarded with the caller's own token
 * ({@link LedgerForwarder}), so the page needs no second host, no CORS and no second token. metrics-gateway keeps the
 * tenant check and validates the parameters; only the parameters it defines are passed on.
 */
@Controller("/api/v1/usage")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class UsageForwardController {

    private static final String CSV = "text/csv";

    private final CallerGuard guard;
    private final LedgerForwarder ledger;
    private final ForwardedIdentitySettings forwarded;
    private final BookingView view;

    public UsageForwardController(
            CallerGuard guard, LedgerForwarder ledger, ForwardedIdentitySettings forwarded, BookingView view) {
        this.guard = guard;
        this.ledger = ledger;
        this.forwarded = forwarded;
        this.view = view;
    }

    @Operation(
            summary = "GPU-hours booked, admitted, busy, idle, reclaimed and released per UTC day [from, to) "
                    + "(groupBy=day, per tenant and pool) or per booking (groupBy=booking), as JSON or with "
                    + "Accept: text/csv as CSV; metrics-gateway's ledger, read with the caller's own token (a tenant "
                    + "sees its own rows, an admin all or tenant=)")
    @Get(produces = {MediaType.APPLICATION_JSON, CSV, MediaType.ALL})
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> usage(
            @Nullable @QueryValue String from,
            @Nullable @QueryValue String to,
            @Nullable @QueryValue String groupBy,
            @Nullable @QueryValue String tenant,
            @Nullable @Header(HttpHeaders.ACCEPT) String accept,
            HttpRequest<?> request,
            Authentication authentication) {
        guard.admit(authentication);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("from", from);
        query.put("to", to);
        query.put("groupBy", groupBy);
        query.put("tenant", tenant);
        boolean csv =
                accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains(CSV);
        return respond(ledger.get("/api/v1/usage" + query(query), csv, CallerCredential.of(request, forwarded)));
    }

    @Operation(
            summary = "Units busy and idle per minute of an ACTIVE booking over the last `minutes` (1..1440, "
                    + "default 60): metrics-gateway's ledger, read with the caller's own token (another tenant's "
                    + "booking is a 404)")
    @Get(uri = "/bookings/{id}/utilization", produces = MediaType.APPLICATION_JSON)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> utilization(
            @PathVariable String id,
            @Nullable @QueryValue String minutes,
            HttpRequest<?> request,
            Authentication authentication) {
        guard.admit(authentication);
        if (id.length() > 64) {
            throw ProblemException.badRequest("BOOKING_ID", "id", "not a booking id");
        }
        Map<String, String> query = new LinkedHashMap<>();
        query.put("minutes", minutes);
        String path = "/api/v1/usage/bookings/" + encode(id) + "/utilization" + query(query);
        return respond(ledger.get(path, false, CallerCredential.of(request, forwarded)));
    }

    @Operation(
            summary = "Fair-share report of a UTC month (month=yyyy-mm): per tenant booked, used (busy) and idle "
                    + "GPU-hours, their cost at the pool catalog's prices, and its share of the fleet's used "
                    + "GPU-hours, as JSON or with Accept: text/csv as CSV; metrics-gateway's ledger, read with the "
                    + "caller's own token (a tenant sees its own row, an admin all or tenant=)",
            description = "Joined here with the month's budgets (gpuaas.budgets): a row of a tenant with a budget "
                    + "carries budget {unit, limit, currency, booked, held, overBudget} and budgetShare, its limit "
                    + "over the sum of the month's limits in the same unit and currency; a tenant with a budget but "
                    + "no use yet gets a row of zeros; fleet.budgets sums every tenant's budgets per unit. CSV "
                    + "columns: tenant, month, booked, used, idle, booked_cost, used_cost, idle_cost, currency, "
                    + "used_share, budget, budget_share, budget_unit, budget_currency, budget_booked, budget_held.")
    @Get(
            uri = "/fair-share",
            produces = {MediaType.APPLICATION_JSON, CSV, MediaType.ALL})
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> fairShare(
            @Nullable @QueryValue String month,
            @Nullable @QueryValue String tenant,
            @Nullable @Header(HttpHeaders.ACCEPT) String accept,
            HttpRequest<?> request,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("month", month);
        query.put("tenant", tenant);
        boolean csv =
                accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains(CSV);
        // Always JSON from the ledger (it validated month and tenant, and scoped the rows); the budgets join here.
        LedgerForwarder.Answer answer =
                ledger.get("/api/v1/usage/fair-share" + query(query), false, CallerCredential.of(request, forwarded));
        JsonNode report = FairShareBudgets.parse(answer.body());
        String only = caller.admin() ? tenant : caller.tenant();
        Predicate<String> shown = only == null ? t -> caller.admin() : only::equals;
        ObjectNode joined = FairShareBudgets.join(
                report, view.budgets().month(report.path("month").asText()), shown);
        return csv
                ? respond(new LedgerForwarder.Answer(FairShareBudgets.csv(joined), true))
                : respond(new LedgerForwarder.Answer(FairShareBudgets.write(joined), false));
    }

    private static HttpResponse<String> respond(LedgerForwarder.Answer answer) {
        return HttpResponse.ok(answer.body())
                .contentType(answer.csv() ? CSV + "; charset=utf-8; header=present" : MediaType.APPLICATION_JSON);
    }

    /** {@code ?a=1&b=2} of the parameters given, each encoded; empty when none is. */
    private static String query(Map<String, String> parameters) {
        StringJoiner out = new StringJoiner("&", "?", "").setEmptyValue("");
        parameters.forEach((name, value) -> {
            if (value != null) {
                out.add(name + "=" + encode(value));
            }
        });
        return out.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
