package io.gpuaas.metrics.http;

import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.cost.Costs.Cost;
import io.gpuaas.metrics.ledger.Ledger.BookingRow;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The usage API's JSON rows: the CSV's columns under camelCase names, figures and costs as numbers. */
final class UsageJson {

    private UsageJson() {}

    static List<Map<String, Object>> days(List<DayRow> rows, Costs costs) {
        return rows.stream()
                .map(r -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("tenant", r.tenant());
                    row.put("day", r.day().toString());
                    row.put("pool", r.pool());
                    figures(row, r.figures());
                    Cost cost = costs.of(r);
                    row.put("bookedCost", cost.booked().doubleValue());
                    row.put("busyCost", cost.busy().doubleValue());
                    row.put("idleCost", cost.idle().doubleValue());
                    return row;
                })
                .toList();
    }

    static List<Map<String, Object>> bookings(List<BookingRow> rows) {
        return rows.stream()
                .map(r -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("bookingId", r.booking().id());
                    row.put("tenant", r.booking().tenant());
                    row.put("pool", r.booking().pool());
                    row.put("state", r.booking().state().name());
                    row.put("start", r.booking().start().toString());
                    row.put("end", r.booking().end().toString());
                    row.put("releaseReason", r.releaseReason());
                    row.put(
                            "releasedAt",
                            r.releasedAt() == null ? null : r.releasedAt().toString());
                    return figures(row, r.figures());
                })
                .toList();
    }

    private static Map<String, Object> figures(Map<String, Object> row, Figures f) {
        row.put("booked", f.booked());
        row.put("admitted", f.admitted());
        row.put("busy", f.busy());
        row.put("idle", f.idle());
        row.put("reclaimed", f.reclaimed());
        row.put("released", f.released());
        return row;
    }
}
