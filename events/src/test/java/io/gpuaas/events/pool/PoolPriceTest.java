package io.gpuaas.events.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PoolPriceTest {

    private static final LocalDate JULY = LocalDate.parse("2025-07-01");

    private static PoolCatalog read(String json) throws IOException {
        return PoolCatalog.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static String pool(String id, String prices) {
        return "{\"id\": \"" + id + "\", \"flavor\": \"" + id + "\", \"resource\": \"nvidia.com/gpu\", \"capacity\": 2,"
                + " \"gpuModel\": \"NVIDIA H200\"" + (prices == null ? "" : ", \"prices\": " + prices) + "}";
    }

    @Test
    void shouldReadAPriceScheduleAndItsCurrencyWhenTheCatalogPricesAPool() throws IOException {
        PoolCatalog catalog = read("[" + pool("h200", """
                [{"perGpuHour": 2.50, "currency": "EUR"},
                 {"perGpuHour": 3.10, "currency": "EUR", "from": "2025-07-01"}]""") + "," + pool("spare", null) + "]");

        Pool h200 = catalog.find("h200").orElseThrow();
        assertThat(catalog.currency()).contains("EUR");
        assertThat(h200.priceOn(LocalDate.parse("2025-06-30")).orElseThrow().perGpuHour())
                .isEqualByComparingTo("2.50");
        assertThat(h200.priceOn(JULY).orElseThrow().perGpuHour()).isEqualByComparingTo("3.10");
        assertThat(catalog.find("spare").orElseThrow().priceOn(JULY)).isEmpty();
        assertThat(read(catalog.toJson()).pools()).isEqualTo(catalog.pools());
    }

    @Test
    void shouldPriceNoDayBeforeTheFirstPriceWhenItNamesAFirstDay() {
        Pool pool = new Pool("h200", "h200", "nvidia.com/gpu", 2, "NVIDIA H200", null)
                .withPrices(List.of(new PoolPrice(new BigDecimal("2"), "USD", JULY)));

        assertThat(pool.priceOn(JULY.minusDays(1))).isEmpty();
        assertThat(pool.priceOn(JULY)).isPresent();
    }

    @Test
    void shouldLeaveTheCatalogWithoutCurrencyWhenNoPoolIsPriced() throws IOException {
        assertThat(read("[" + pool("h200", null) + "]").currency()).isEmpty();
        assertThat(PoolCatalog.load(Optional.empty()).currency()).contains("USD");
    }

    @Test
    void shouldRefuseANegativeOrNonFiniteOrOverPrecisePriceWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() -> read("[" + pool("h200", "[{\"perGpuHour\": -0.01, \"currency\": \"EUR\"}]") + "]"))
                .hasStackTraceContaining("perGpuHour must be >= 0");
        for (String notFinite : List.of("NaN", "Infinity", "-Infinity", "\"NaN\"", "\"Infinity\"", "1e", "null")) {
            assertThatThrownBy(() -> read(
                            "[" + pool("h200", "[{\"perGpuHour\": " + notFinite + ", \"currency\": \"EUR\"}]") + "]"))
                    .as(notFinite)
                    .isInstanceOf(Exception.class);
        }
        assertThatThrownBy(() -> read("[" + pool("h200", "[{\"perGpuHour\": 0.0000001, \"currency\": \"EUR\"}]") + "]"))
                .hasStackTraceContaining("more than 6 decimals");
    }

    @Test
    void shouldRefuseAnUnknownCurrencyOrTwoCurrenciesWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() -> read("[" + pool("h200", "[{\"perGpuHour\": 1, \"currency\": \"XYZ\"}]") + "]"))
                .hasStackTraceContaining("unknown ISO 4217 currency XYZ");
        assertThatThrownBy(() -> read("[" + pool("h200", "[{\"perGpuHour\": 1}]") + "]"))
                .hasStackTraceContaining("ISO 4217");
        assertThatThrownBy(() -> read("[" + pool("a", "[{\"perGpuHour\": 1, \"currency\": \"EUR\"}]") + ","
                        + pool("b", "[{\"perGpuHour\": 1, \"currency\": \"USD\"}]") + "]"))
                .hasMessageContaining("one currency");
        assertThatThrownBy(() -> read("[" + pool("a", """
                        [{"perGpuHour": 1, "currency": "EUR"},
                         {"perGpuHour": 1, "currency": "USD", "from": "2025-07-01"}]""") + "]")).hasStackTraceContaining("one currency");
    }

    @Test
    void shouldRefuseAScheduleOutOfOrderOrALaterPriceWithoutFirstDayWhenTheCatalogIsLoaded() {
        assertThatThrownBy(() -> read("[" + pool("a", """
                        [{"perGpuHour": 1, "currency": "EUR", "from": "2025-07-01"},
                         {"perGpuHour": 2, "currency": "EUR", "from": "2025-07-01"}]""") + "]")).hasStackTraceContaining("ascending order");
        assertThatThrownBy(() -> read("[" + pool("a", """
                        [{"perGpuHour": 1, "currency": "EUR"},
                         {"perGpuHour": 2, "currency": "EUR"}]""") + "]"))
                .hasStackTraceContaining("only the first price may omit from");
    }

    @Test
    void shouldPriceWeighedGpuHoursHalfEvenToSixDecimalsWhenACostIsAsked() {
        PoolPrice price = new PoolPrice(new BigDecimal("3.50"), "EUR", null);

        // Seven 1g.18gb slice-hours on an H200 weigh one GPU-hour: 7 x (1/7) as the ledger rounds it.
        assertThat(price.costOf(1.0)).isEqualByComparingTo("3.5");
        assertThat(price.costOf(0.142857)).isEqualByComparingTo("0.500000");
        assertThat(price.costOf(0.0000005)).isEqualByComparingTo("0.000002");
        assertThat(price.costOf(0)).isEqualByComparingTo("0");
        assertThatThrownBy(() -> price.costOf(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
