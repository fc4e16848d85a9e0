package io.gpuaas.metrics.http;

import io.gpuaas.metrics.cost.FairShare.Report;
import io.gpuaas.metrics.cost.FairShare.Row;
import java.math.BigDecimal;

/**
 * The fair-share report as CSV (RFC 4180, CRLF, a header row): one row per tenant, hours and costs with six
 * decimals, shares as fractions with six. {@code budget} and {@code budget_share} are empty here: booking-service
 * fills them (and adds the budget's unit, currency, booked and held) in the report it forwards.
 */
final class FairShareCsv {

    static final String HEADER = "tenant,month,booked,used,idle,booked_cost,used_cost,idle_cost,currency,used_share,"
            + "budget,budget_share";

    private FairShareCsv() {}

    static String of(Report report) {
        StringBuilder out = new StringBuilder(HEADER).append("\r\n");
        for (Row row : report.rows()) {
            out.append(UsageCsv.quoted(row.tenant()))
                    .append(',')
                    .append(report.month())
                    .append(',')
                    .append(UsageCsv.number(row.booked()))
                    .append(',')
                    .append(UsageCsv.number(row.used()))
                    .append(',')
                    .append(UsageCsv.number(row.idle()))
                    .append(',')
                    .append(UsageCsv.number(row.cost().booked()))
                    .append(',')
                    .append(UsageCsv.number(row.cost().busy()))
                    .append(',')
                    .append(UsageCsv.number(row.cost().idle()))
                    .append(',')
                    .append(report.currency() == null ? "" : report.currency())
                    .append(',')
                    .append(plain(row.usedShare()))
                    .append(',')
                    .append(plain(row.budget()))
                    .append(',')
                    .append(plain(row.budgetShare()))
                    .append("\r\n");
        }
        return out.toString();
    }

    private static String plain(BigDecimal value) {
        return value == null ? "" : value.toPlainString();
    }
}
