package io.gpuaas.metrics.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.metrics.cost.Costs;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UsageCsvTest {

    @Test
    void shouldWriteAHeaderAndSixDecimalsWithCrlfLineEndsWhenRowsAreRendered() {
        String csv = UsageCsv.days(
                List.of(new DayRow(
                        "team-a",
                        LocalDate.parse("2026-11-21"),
                        "h200-mig-1g.18gb",
                        new Figures(0.428571, 0, 1e-6, 12.5, 0.333333, 0.142857))),
                new Costs(PoolCatalog.load(Optional.empty())));

        assertThat(csv)
                .isEqualTo(
                        "tenant,day,pool,booked,admitted,busy,idle,reclaimed,released,booked_cost,busy_cost,idle_cost\r\n"
                                + "team-a,2026-11-21,h200-mig-1g.18gb,0.428571,0.000000,0.000001,12.500000,0.333333,0.142857,"
                                // At the shipped 3.50 a GPU-hour: 0.428571 x 3.5 = 1.4999985, half-even 1.499998.
                                + "1.499998,0.000004,43.750000\r\n");
    }

    @Test
    void shouldQuoteFieldsWithCommasQuotesOrLineBreaksAsRfc4180Says() {
        assertThat(UsageCsv.quoted("team-a")).isEqualTo("team-a");
        assertThat(UsageCsv.quoted("a,b")).isEqualTo("\"a,b\"");
        assertThat(UsageCsv.quoted("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(UsageCsv.quoted("two\nlines")).isEqualTo("\"two\nlines\"");
    }
}
