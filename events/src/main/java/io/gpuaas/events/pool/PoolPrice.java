package io.gpuaas.events.pool;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.Currency;

/**
 * What one GPU-hour of a pool costs from a UTC day on: the platform team's price, one entry of a pool's
 * {@link Pool#prices()} schedule. The ledger's GPU-hours are already weighed (a MIG unit is {@link Pool#gpuFraction()}
 * of a GPU), so one price per GPU-hour prices every profile of a pool alike: on an H200 a 1g.18gb slice-hour costs
 * a seventh of the price, a 3g.71gb slice-hour half.
 *
 * <p>A price applies to the GPU-hours of the UTC days from {@code from} on, never to earlier days: a change is a new
 * entry dated from the day it takes effect, and the days before keep their price (the ledger's figures are per UTC
 * day, so one day has one price, and its cost is the day's GPU-hours times it, however and whenever the day's figures
 * were computed).
 *
 * @param perGpuHour what one GPU-hour costs, finite and at least 0 (JSON numbers only; {@code NaN} or
 *                   {@code Infinity} cannot be read as one)
 * @param currency   ISO 4217 code, e.g. {@code EUR}; one currency for the whole catalog
 * @param from       the first UTC day the price applies to; null (absent in the file) only on a pool's first
 *                   entry: from the beginning
 */
public record PoolPrice(BigDecimal perGpuHour, String currency, LocalDate from) {

    /** Decimals of every cost figure (as of GPU-hours: a cost is exact to the hour figure it multiplies). */
    public static final int COST_SCALE = 6;

    /** Rejects a missing, negative or absurdly precise price and a currency ISO 4217 does not define. */
    public PoolPrice {
        if (perGpuHour == null) {
            throw new IllegalArgumentException("a price needs perGpuHour");
        }
        if (perGpuHour.signum() < 0) {
            throw new IllegalArgumentException("perGpuHour must be >= 0, got " + perGpuHour.toPlainString());
        }
        if (perGpuHour.scale() > COST_SCALE) {
            throw new IllegalArgumentException(
                    "perGpuHour has more than " + COST_SCALE + " decimals: " + perGpuHour.toPlainString());
        }
        if (currency == null || !currency.matches("[A-Z]{3}")) {
            throw new IllegalArgumentException("a price needs an ISO 4217 currency such as EUR, got " + currency);
        }
        try {
            Currency.getInstance(currency);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown ISO 4217 currency " + currency, e);
        }
    }

    /**
     * The cost of {@code gpuHours} (weighed GPU-hours as the ledger serves them) at this price, rounded half-even to
     * {@value #COST_SCALE} decimals; a NaN or infinite figure is refused rather than priced.
     */
    public BigDecimal costOf(double gpuHours) {
        if (!Double.isFinite(gpuHours)) {
            throw new IllegalArgumentException("cannot price " + gpuHours + " GPU-hours");
        }
        return BigDecimal.valueOf(gpuHours).multiply(perGpuHour).setScale(COST_SCALE, RoundingMode.HALF_EVEN);
    }

    /** Whether this price applies to {@code day}: from its first day on (always, without one). */
    public boolean appliesTo(LocalDate day) {
        return from == null || !day.isBefore(from);
    }
}
