package io.gpuaas.metrics.http;

import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.cost.Costs.Cost;
import io.gpuaas.metrics.ledger.Ledger.BookingRow;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.math.BigDecimal;
import java.util.List;

/**
 * The usage API's CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes doubled):
 * a header row and the columns in a fixed order, figures with exactly six decimals.
 */
final class UsageCsv {

    static final String DAY_HEADER =
            "tenant,day,pool,booked,admitted,busy,idle,reclaimed,released,booked_cost,busy_cost,idle_cost";
    static final String BOOKING_HEADER = "booking_id,tenant,pool,state,start,end,release_reason,released_at,"
            + "booked,admitted,busy,idle,reclaimed,released";

    private UsageCsv() {}

    static String days(List<DayRow> rows, Costs costs) {
        StringBuilder out = new StringBuilder(DAY_HEADER).append("\r\n");
        for (DayRow r : rows) {
            fields(out, r.tenant(), r.day().toString(), r.pool());
            figures(out, r.figures(), false);
            Cost cost = costs.of(r);
            out.append(',')
                    .append(number(cost.booked()))
                    .append(',')
                    .append(number(cost.busy()))
                    .append(',')
                    .append(number(cost.idle()))
                    .append("\r\n");
        }
        return out.toString();
    }

    static String bookings(List<BookingRow> rows) {
        StringBuilder out = new StringBuilder(BOOKING_HEADER).append("\r\n");
        for (BookingRow r : rows) {
            fields(
                    out,
                    r.booking().id(),
                    r.booking().tenant(),
                    r.booking().pool(),
                    r.booking().state().name(),
                    r.booking().start().toString(),
                    r.booking().end().toString(),
                    r.releaseReason() == null ? "" : r.releaseReason(),
                    r.releasedAt() == null ? "" : r.releasedAt().toString());
            figures(out, r.figures());
        }
        return out.toString();
    }

    private static void fields(StringBuilder out, String... values) {
        for (String value : values) {
            out.append(quoted(value)).append(',');
        }
    }

    private static void figures(StringBuilder out, Figures f) {
        figures(out, f, true);
    }

    private static void figures(StringBuilder out, Figures f, boolean endLine) {
        double[] values = {f.booked(), f.admitted(), f.busy(), f.idle(), f.reclaimed(), f.released()};
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ",").append(number(values[i]));
        }
        if (endLine) {
            out.append("\r\n");
        }
    }

    /** A cost with exactly six decimals, no exponent. */
    static String number(BigDecimal cost) {
        return cost.setScale(6, java.math.RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Six decimals, no exponent: {@code 0.428571}. */
    static String number(double gpuHours) {
        return BigDecimal.valueOf(gpuHours)
                .setScale(6, java.math.RoundingMode.HALF_EVEN)
                .toPlainString();
    }

    static String quoted(String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }
}
