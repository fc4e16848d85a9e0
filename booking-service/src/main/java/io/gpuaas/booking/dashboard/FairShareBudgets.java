package io.gpuaas.booking.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.Json;
import io.gpuaas.events.budget.TenantBudget;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The fair-share report of metrics-gateway with the month's budgets joined in (issue 30, item 4): booking-service
 * already reads {@code gpuaas.budgets}, so the join happens where it forwards the report and metrics-gateway needs no
 * access to budgets. Pure: the report's JSON, the month's budgets and which tenants the caller sees in, the joined
 * JSON (or its CSV) out.
 *
 * <p>Each row of a tenant with a budget gains {@code budget} ({@code unit}, {@code limit}, {@code currency},
 * {@code booked}, {@code held}, {@code overBudget}, as the budget stage last decided them) and {@code budgetShare}:
 * its limit over the sum of the month's limits in the same unit (and currency), so GPU-hour budgets share among
 * themselves and cost budgets among theirs. A tenant the caller sees with a budget but no ledger row yet gets a row
 * of zeros. The fleet gains {@code budgets}: per unit (and currency) the sums of every tenant's limit, booked and
 * held, whoever asks, as a tenant also sees its share of the whole fleet's use.
 */
public final class FairShareBudgets {

    /**
     * metrics-gateway's columns (budget and budget_share filled here), then the rest of the budget.
     */
    static final String CSV_HEADER =
            "tenant,month,booked,used,idle,booked_cost,used_cost,idle_cost,currency,used_share,"
                    + "budget,budget_share,budget_unit,budget_currency,budget_booked,budget_held";

    /** Decimals of a share, as metrics-gateway's. */
    static final int SHARE_SCALE = 6;

    /** Reads numbers as written, so the report's figures pass through to the digit. */
    private static final ObjectMapper EXACT =
            Json.mapper().copy().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private FairShareBudgets() {}

    /** Parses metrics-gateway's report body. */
    static JsonNode parse(String body) {
        try {
            return EXACT.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the usage ledger answered a fair-share report that is not JSON", e);
        }
    }

    static String write(JsonNode report) {
        try {
            return EXACT.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the fair-share report", e);
        }
    }

    /**
     * The report with budgets joined.
     *
     * @param report  metrics-gateway's report (month, currency, fleet, rows), already scoped to the caller
     * @param budgets every tenant's budget of the report's month
     * @param shown   the tenants whose rows the caller sees (a budget of another adds no row)
     */
    public static ObjectNode join(JsonNode report, List<TenantBudget> budgets, Predicate<String> shown) {
        ObjectNode out = report.deepCopy();
        Map<String, Total> totals = new TreeMap<>();
        for (TenantBudget b : budgets) {
            totals.computeIfAbsent(pot(b), k -> new Total(b.unit(), b.currency()))
                    .add(b);
        }
        Map<String, ObjectNode> rows = new TreeMap<>();
        for (JsonNode row : report.path("rows")) {
            rows.put(row.path("tenant").asText(), (ObjectNode) row.deepCopy());
        }
        boolean fleetUsed = report.path("fleet").path("used").decimalValue().signum() != 0;
        for (TenantBudget b : budgets) {
            if (shown.test(b.tenant())) {
                ObjectNode row = rows.computeIfAbsent(b.tenant(), t -> zeroRow(t, fleetUsed));
                row.set("budget", budget(b));
                BigDecimal sum = totals.get(pot(b)).limit;
                row.put(
                        "budgetShare",
                        sum.signum() == 0 ? null : b.limit().divide(sum, SHARE_SCALE, RoundingMode.HALF_EVEN));
            }
        }
        ArrayNode rowsOut = out.putArray("rows");
        rows.values().forEach(rowsOut::add);
        if (out.get("fleet") instanceof ObjectNode fleet) {
            ArrayNode pots = fleet.putArray("budgets");
            totals.values().forEach(t -> pots.add(t.json()));
        }
        return out;
    }

    /** The joined report as CSV (RFC 4180, CRLF, a header row), hours, costs and shares with six decimals. */
    public static String csv(JsonNode joined) {
        StringBuilder out = new StringBuilder(CSV_HEADER).append("\r\n");
        String month = joined.path("month").asText();
        String currency =
                joined.path("currency").isTextual() ? joined.path("currency").asText() : "";
        for (JsonNode row : joined.path("rows")) {
            JsonNode budget = row.path("budget");
            boolean has = budget.isObject();
            out.append(quoted(row.path("tenant").asText()))
                    .append(',')
                    .append(month)
                    .append(',')
                    .append(number(row.get("booked")))
                    .append(',')
                    .append(number(row.get("used")))
                    .append(',')
                    .append(number(row.get("idle")))
                    .append(',')
                    .append(number(row.get("bookedCost")))
                    .append(',')
                    .append(number(row.get("usedCost")))
                    .append(',')
                    .append(number(row.get("idleCost")))
                    .append(',')
                    .append(currency)
                    .append(',')
                    .append(number(row.get("usedShare")))
                    .append(',')
                    .append(has ? number(budget.get("limit")) : "")
                    .append(',')
                    .append(number(row.get("budgetShare")))
                    .append(',')
                    .append(has ? budget.path("unit").asText() : "")
                    .append(',')
                    .append(
                            has && budget.path("currency").isTextual()
                                    ? budget.path("currency").asText()
                                    : "")
                    .append(',')
                    .append(has ? number(budget.get("booked")) : "")
                    .append(',')
                    .append(has ? number(budget.get("held")) : "")
                    .append("\r\n");
        }
        return out.toString();
    }

    private static String pot(TenantBudget b) {
        return b.unit() + "/" + Objects.toString(b.currency(), "");
    }

    private static ObjectNode budget(TenantBudget b) {
        ObjectNode out = NODES.objectNode();
        out.put("unit", b.unit().name());
        out.put("limit", b.limit());
        out.put("currency", b.currency());
        out.put("booked", b.booked());
        out.put("held", b.held());
        out.put("overBudget", b.overBudget());
        return out;
    }

    private static ObjectNode zeroRow(String tenant, boolean fleetUsed) {
        ObjectNode row = NODES.objectNode();
        row.put("tenant", tenant);
        for (String field : new String[] {"booked", "used", "idle", "bookedCost", "usedCost", "idleCost"}) {
            row.put(field, BigDecimal.ZERO);
        }
        row.put("usedShare", fleetUsed ? BigDecimal.ZERO : null);
        return row;
    }

    private static String number(JsonNode value) {
        return value == null || !value.isNumber()
                ? ""
                : value.decimalValue()
                        .setScale(SHARE_SCALE, RoundingMode.HALF_EVEN)
                        .toPlainString();
    }

    private static String quoted(String text) {
        return text.matches("[^,\"\r\n]*") ? text : "\"" + text.replace("\"", "\"\"") + "\"";
    }

    /** The sums of one unit's (and currency's) budgets. */
    private static final class Total {
        private final TenantBudget.Unit unit;
        private final String currency;
        private BigDecimal limit = BigDecimal.ZERO;
        private BigDecimal booked = BigDecimal.ZERO;
        private BigDecimal held = BigDecimal.ZERO;

        Total(TenantBudget.Unit unit, String currency) {
            this.unit = unit;
            this.currency = currency;
        }

        void add(TenantBudget b) {
            limit = limit.add(b.limit());
            booked = booked.add(b.booked());
            held = held.add(b.held());
        }

        ObjectNode json() {
            ObjectNode out = NODES.objectNode();
            out.put("unit", unit.name());
            out.put("currency", currency);
            out.put("limit", limit);
            out.put("booked", booked);
            out.put("held", held);
            return out;
        }
    }
}
