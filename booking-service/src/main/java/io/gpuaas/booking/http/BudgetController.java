package io.gpuaas.booking.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.booking.kafka.CommandPublisher;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.budget.BudgetCommand;
import io.gpuaas.events.budget.TenantBudget;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * Tenants' budgets per UTC calendar month. An admin sets them ({@code PUT}; anybody else 403 {@code ADMIN_ONLY}
 * before the body is read); a tenant reads its own, and another tenant's answers the same 404 as one never set. The
 * budget goes to the tenant's budget stage (the one writer per tenant), which from then on refuses a create, change or
 * series that would take a month's confirmed bookings over it; the state read here is the stage's, from
 * {@code gpuaas.budgets}.
 */
@Controller("/api/v1/budgets")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class BudgetController {

    /** The largest budget accepted, in GPU-hours or in the catalog's currency. */
    static final BigDecimal MAX_LIMIT = new BigDecimal("1000000000");

    private static final ObjectMapper EXACT =
            Json.mapper().copy().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static final Pattern MONTH = Pattern.compile("[0-9]{4}-(0[1-9]|1[0-2])");

    /**
     * The body of a budget.
     *
     * @param unit  {@code GPU_HOURS} or {@code COST} (in the pool catalog's currency)
     * @param limit the budget, 0 to 10^9, at most 6 decimals
     */
    @Introspected
    public record BudgetRequest(
            @Schema(allowableValues = {"GPU_HOURS", "COST"}) String unit, BigDecimal limit) {}

    /** The tenants' budgets of one month. */
    @Introspected
    public record Budgets(String month, List<TenantBudget> budgets) {}

    /** A budget accepted for its tenant's stage; read it back at its address. */
    @Introspected
    public record BudgetAccepted(
            String requestId,
            String tenant,
            String month,
            TenantBudget.Unit unit,
            BigDecimal limit,
            @Nullable String currency) {}

    private final BookingView view;
    private final CommandPublisher publisher;
    private final CallerGuard guard;
    private final PoolCatalog pools;

    public BudgetController(BookingView view, CommandPublisher publisher, CallerGuard guard, PoolCatalog pools) {
        this.view = view;
        this.publisher = publisher;
        this.guard = guard;
        this.pools = pools;
    }

    @Operation(
            summary = "Set a tenant's budget for a UTC month (admins only)",
            description = "unit GPU_HOURS (weighed GPU-hours, a MIG slice as its share of a GPU) or COST (at the pool "
                    + "catalog's prices, in its currency). 202 with Location: the budget stage applies it; from then "
                    + "on a booking that would take the tenant's confirmed amount for the month over it is refused "
                    + "409 BUDGET_EXCEEDED. 403 ADMIN_ONLY for anyone but an admin; 400 for a bad tenant, month, unit "
                    + "or limit; 422 NO_PRICES for a cost budget when the catalog has no prices; 422 MONTH_CLOSED for "
                    + "a month before the previous one (nothing can change there any more).")
    @RequestBody(
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = BudgetRequest.class)))
    @Put(uri = "/{tenant}/{month}", consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public CompletableFuture<MutableHttpResponse<?>> set(
            @PathVariable String tenant,
            @PathVariable String month,
            @Nullable @Body String body,
            Authentication authentication) {
        Caller caller = guard.admit(authentication);
        if (!caller.admin()) {
            throw new ProblemException(403, "ADMIN_ONLY", null, "only an admin sets budgets");
        }
        String forTenant = RequestValidator.dnsLabel("tenant", tenant);
        String forMonth = month(month);
        JsonNode o = object(body);
        String unitText = BookingRequests.string(o, "unit");
        BookingRequests.require(unitText, "unit");
        TenantBudget.Unit unit;
        try {
            unit = TenantBudget.Unit.valueOf(unitText);
        } catch (IllegalArgumentException e) {
            throw ProblemException.badRequest("INVALID_FIELD", "unit", "unit must be GPU_HOURS or COST");
        }
        BigDecimal limit = limit(o.get("limit"));
        String currency = null;
        if (unit == TenantBudget.Unit.COST) {
            currency = pools.currency()
                    .orElseThrow(() -> new ProblemException(
                            422, "NO_PRICES", "unit", "the pool catalog has no prices; set a GPU_HOURS budget"));
        }
        YearMonth firstOpen = YearMonth.now(java.time.ZoneOffset.UTC).minusMonths(1);
        if (YearMonth.parse(forMonth).isBefore(firstOpen)) {
            // The budget stage forgets months before the previous one (nothing can be booked in them any more).
            throw new ProblemException(
                    422, "MONTH_CLOSED", "month", "budgets of months before " + firstOpen + " can no longer change");
        }
        String requestId = UUID.randomUUID().toString();
        BudgetCommand.SetBudget command = new BudgetCommand.SetBudget(
                requestId, caller, forTenant, forMonth, unit, limit, currency, Instant.now());
        String currencyOut = currency;
        return publisher.budget(command).thenApply(sent -> HttpResponse.accepted(
                        URI.create("/api/v1/budgets/" + forTenant + "/" + forMonth))
                .body(new BudgetAccepted(requestId, forTenant, forMonth, unit, limit, currencyOut)));
    }

    @Operation(
            summary = "A tenant's budget for a UTC month and where it stands",
            description = "booked (confirmed bookings), held (requests being decided, awaiting approval or waiting), "
                    + "overBudget. A tenant reads its own; another tenant's, or one never set, is 404.")
    @Get(uri = "/{tenant}/{month}", produces = MediaType.APPLICATION_JSON)
    public TenantBudget get(@PathVariable String tenant, @PathVariable String month, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String forTenant = RequestValidator.dnsLabel("tenant", tenant);
        String forMonth = month(month);
        return view.budgets()
                .find(forTenant, forMonth)
                .filter(b -> caller.admin() || b.tenant().equals(caller.tenant()))
                .orElseThrow(() -> new ProblemException(
                        404, "BUDGET_NOT_FOUND", "tenant", "no budget for " + forTenant + " in " + forMonth));
    }

    @Operation(
            summary = "The budgets of a UTC month: every tenant's for an admin, the caller's own for a tenant",
            description = "month: yyyy-MM (default: the current UTC month).")
    @Get(produces = MediaType.APPLICATION_JSON)
    public Budgets list(@Nullable @QueryValue String month, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        String forMonth =
                month == null ? YearMonth.now(java.time.ZoneOffset.UTC).toString() : month(month);
        List<TenantBudget> budgets = view.budgets().month(forMonth).stream()
                .filter(b -> caller.admin() || b.tenant().equals(caller.tenant()))
                .toList();
        return new Budgets(forMonth, budgets);
    }

    /** The body as a JSON object, its numbers as written (0.1 is 0.1, not the double nearest to it). */
    private static JsonNode object(String body) {
        BookingRequests.object(body); // the edge's rules: one JSON object, no member twice, nothing after it
        try {
            return EXACT.readTree(body);
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "the body is not valid JSON");
        }
    }

    private static String month(String text) {
        if (text == null || !MONTH.matcher(text).matches()) {
            throw ProblemException.badRequest("INVALID_MONTH", "month", "month must be yyyy-MM, e.g. 2026-11");
        }
        try {
            return YearMonth.parse(text).toString();
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest("INVALID_MONTH", "month", "month must be yyyy-MM, e.g. 2026-11");
        }
    }

    private static BigDecimal limit(JsonNode v) {
        if (v == null || v.isNull()) {
            throw ProblemException.badRequest("REQUIRED", "limit", "limit is required");
        }
        if (!v.isNumber()) {
            throw ProblemException.badRequest("INVALID_LIMIT", "limit", "limit must be a number");
        }
        BigDecimal limit = v.decimalValue().stripTrailingZeros();
        if (limit.signum() < 0 || limit.compareTo(MAX_LIMIT) > 0 || limit.scale() > 6) {
            throw ProblemException.badRequest(
                    "INVALID_LIMIT", "limit", "limit must be between 0 and 1000000000 with at most 6 decimals");
        }
        return limit.scale() < 0 ? limit.setScale(0) : limit;
    }
}
