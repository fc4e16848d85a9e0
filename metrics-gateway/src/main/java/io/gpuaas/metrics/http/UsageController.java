package io.gpuaas.metrics.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpuaas.events.Json;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.metrics.config.LedgerSettings;
import io.gpuaas.metrics.cost.Costs;
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
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@code GET /api/v1/usage?from=&to=&groupBy=day|booking[&tenant=]}: the GPU-hours ledger (DESIGN.md "Ledger") over
 * the UTC days {@code [from, to)}, as JSON or, with {@code Accept: text/csv}, as CSV; day rows carry their booked,
 * busy and idle cost at the pool catalog's price of the day ({@link Costs}). A tenant sees its own rows
 * only (a {@code tenant=} naming another is 403); an admin sees all, or one tenant with {@code tenant=}. Missing,
 * malformed, reversed or too wide days and an unknown {@code groupBy} are 400 problems naming the parameter; 503
 * {@code LEDGER_CATCHING_UP} until the ledger feed has caught up.
 */
@Controller("/api/v1/usage")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class UsageController {

    static final String CSV = "text/csv";

    private final LedgerSnapshots ledger;
    private final CallerResolver callers;
    private final LedgerSettings settings;
    private final Costs costs;

    public UsageController(LedgerSnapshots ledger, CallerResolver callers, LedgerSettings settings, Costs costs) {
        this.ledger = ledger;
        this.callers = callers;
        this.settings = settings;
        this.costs = costs;
    }

    @Get(produces = {MediaType.APPLICATION_JSON, CSV, MediaType.ALL})
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<?> usage(
            @Nullable @QueryValue String from,
            @Nullable @QueryValue String to,
            @Nullable @QueryValue String groupBy,
            @Nullable @QueryValue String tenant,
            @Nullable @Header(HttpHeaders.ACCEPT) String accept,
            Authentication authentication,
            HttpRequest<?> request) {
        String path = request.getPath();
        LocalDate[] days = new LocalDate[2];
        Optional<Problem> bad = day("from", from, d -> days[0] = d)
                .or(() -> day("to", to, d -> days[1] = d))
                .or(() -> range(days[0], days[1]))
                .or(() -> groupBy == null || groupBy.equals("day") || groupBy.equals("booking")
                        ? Optional.empty()
                        : Optional.of(Problem.of(
                                        HttpStatus.BAD_REQUEST, "GROUP_BY", "groupBy", "groupBy must be day or booking")
                                .with("allowed", List.of("day", "booking"))));
        if (bad.isPresent()) {
            return bad.get().response(path);
        }
        Caller caller = callers.caller(authentication);
        if (!caller.admin() && (caller.tenant() == null || (tenant != null && !tenant.equals(caller.tenant())))) {
            return Problem.of(HttpStatus.FORBIDDEN, "TENANT_NOT_OWNED", "tenant", "a tenant sees its own usage only")
                    .response(path);
        }
        String only = caller.admin() ? tenant : caller.tenant();
        Predicate<String> tenants = only == null ? t -> true : only::equals;
        boolean byBooking = "booking".equals(groupBy);
        boolean csv = accept != null && accept.contains(CSV);
        Ledger current = ledger.current().orElse(null);
        if (current == null) {
            return CatchingUp.response(path);
        }
        if (csv) {
            String body = byBooking
                    ? UsageCsv.bookings(current.bookings(days[0], days[1], tenants))
                    : UsageCsv.days(current.days(days[0], days[1], tenants), costs);
            return HttpResponse.ok(body).contentType(CSV + "; charset=utf-8; header=present");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("from", days[0].toString());
        body.put("to", days[1].toString());
        body.put("groupBy", byBooking ? "booking" : "day");
        body.put("unit", "GPU-hours");
        if (!byBooking) {
            costs.currency().ifPresent(currency -> body.put("currency", currency));
        }
        body.put(
                "rows",
                byBooking
                        ? UsageJson.bookings(current.bookings(days[0], days[1], tenants))
                        : UsageJson.days(current.days(days[0], days[1], tenants), costs));
        try {
            return HttpResponse.ok(Json.mapper().writeValueAsString(body)).contentType(MediaType.APPLICATION_JSON);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render usage", e);
        }
    }

    private static Optional<Problem> day(String name, String value, java.util.function.Consumer<LocalDate> out) {
        if (value == null || value.isBlank()) {
            return Optional.of(
                    Problem.of(HttpStatus.BAD_REQUEST, "REQUIRED", name, name + " is required (yyyy-mm-dd)"));
        }
        try {
            out.accept(LocalDate.parse(value));
            return Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.of(
                    Problem.of(HttpStatus.BAD_REQUEST, "DATE", name, name + " must be a UTC day, yyyy-mm-dd"));
        }
    }

    private Optional<Problem> range(LocalDate from, LocalDate to) {
        if (!to.isAfter(from)) {
            return Optional.of(Problem.of(HttpStatus.BAD_REQUEST, "RANGE", "to", "to must be after from"));
        }
        if (ChronoUnit.DAYS.between(from, to) > settings.maxRangeDays()) {
            return Optional.of(Problem.of(
                            HttpStatus.BAD_REQUEST,
                            "RANGE_TOO_WIDE",
                            "to",
                            "from and to may be at most " + settings.maxRangeDays() + " days apart")
                    .with("maxDays", settings.maxRangeDays()));
        }
        return Optional.empty();
    }
}
