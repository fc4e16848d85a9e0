package io.gpuaas.metrics.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.cost.FairShare;
import io.gpuaas.metrics.cost.FairShare.Report;
import io.gpuaas.metrics.cost.FairShare.Row;
import io.gpuaas.metrics.ledger.Ledger;
import io.gpuaas.metrics.ledger.LedgerSnapshots;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code GET /api/v1/usage/fair-share?month=yyyy-mm[&tenant=]}: the fair-share report of a UTC calendar month
 * ({@link FairShare}) as JSON or, with {@code Accept: text/csv}, as CSV. A tenant sees its own row (its share is of
 * the whole fleet's use); an admin every tenant's, or one with {@code tenant=}. 400 {@code REQUIRED}/{@code MONTH}, 403
 * {@code TENANT_NOT_OWNED} as on {@code /api/v1/usage}, 503 {@code LEDGER_CATCHING_UP} until the ledger caught up.
 */
@Controller("/api/v1/usage/fair-share")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class FairShareController {

    private final LedgerSnapshots ledger;
    private final CallerResolver callers;
    private final FairShare fairShare;

    public FairShareController(LedgerSnapshots ledger, CallerResolver callers, Costs costs) {
        this.ledger = ledger;
        this.callers = callers;
        this.fairShare = new FairShare(costs);
    }

    @Get(produces = {MediaType.APPLICATION_JSON, UsageController.CSV, MediaType.ALL})
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> report(
            @Nullable @QueryValue String month,
            @Nullable @QueryValue String tenant,
            @Nullable @Header(HttpHeaders.ACCEPT) String accept,
            Authentication authentication,
            HttpRequest<?> request) {
        String path = request.getPath();
        if (month == null || month.isBlank()) {
            return Problem.of(HttpStatus.BAD_REQUEST, "REQUIRED", "month", "month is required (yyyy-mm)")
                    .response(path);
        }
        YearMonth asked;
        try {
            // Four-digit years only: a signed year such as +999999999-12 parses, and its next month overflows.
            asked = month.matches("\\d{4}-\\d{2}") ? YearMonth.parse(month) : null;
        } catch (DateTimeParseException e) {
            asked = null;
        }
        if (asked == null) {
            return Problem.of(HttpStatus.BAD_REQUEST, "MONTH", "month", "month must be a UTC month, yyyy-mm")
                    .response(path);
        }
        Caller caller = callers.caller(authentication);
        if (!caller.admin() && (caller.tenant() == null || (tenant != null && !tenant.equals(caller.tenant())))) {
            return Problem.of(HttpStatus.FORBIDDEN, "TENANT_NOT_OWNED", "tenant", "a tenant sees its own usage only")
                    .response(path);
        }
        String only = caller.admin() ? tenant : caller.tenant();
        Predicate<String> shown = only == null ? t -> true : only::equals;
        Ledger current = ledger.current().orElse(null);
        if (current == null) {
            return CatchingUp.response(path);
        }
        Report report = fairShare.of(current, asked, shown);
        if (accept != null && accept.contains(UsageController.CSV)) {
            return HttpResponse.ok(FairShareCsv.of(report))
                    .contentType(UsageController.CSV + "; charset=utf-8; header=present");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("month", asked.toString());
        body.put("unit", "GPU-hours");
        body.put("currency", report.currency());
        body.put("fleet", json(report.fleet()));
        body.put("rows", report.rows().stream().map(FairShareController::json).toList());
        try {
            return HttpResponse.ok(Json.mapper().writeValueAsString(body)).contentType(MediaType.APPLICATION_JSON);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the fair-share report", e);
        }
    }

    /** A row as JSON; the budget fields are left out while they are null (booking-service joins budgets). */
    private static Map<String, Object> json(Row row) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (row.tenant() != null) {
            out.put("tenant", row.tenant());
        }
        out.put("booked", row.booked());
        out.put("used", row.used());
        out.put("idle", row.idle());
        out.put("bookedCost", row.cost().booked().doubleValue());
        out.put("usedCost", row.cost().busy().doubleValue());
        out.put("idleCost", row.cost().idle().doubleValue());
        if (row.tenant() != null) {
            out.put(
                    "usedShare",
                    row.usedShare() == null ? null : row.usedShare().doubleValue());
        }
        if (row.budget() != null) {
            out.put("budget", row.budget().doubleValue());
            out.put("budgetShare", row.budgetShare().doubleValue());
        }
        return out;
    }
}
