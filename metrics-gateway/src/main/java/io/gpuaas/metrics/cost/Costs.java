package io.gpuaas.metrics.cost;

import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolPrice;
import io.gpuaas.events.usage.UsageDaily.Figures;
import io.gpuaas.metrics.ledger.Ledger.DayRow;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Optional;

/**
 * The ledger's GPU-hours priced: a day row's booked, busy and idle GPU-hours times its pool's price of that UTC day
 * (events' {@link PoolPrice}, from the pool catalog). The hours are already weighed (a MIG unit by its share of a
 * GPU), so a price per GPU-hour prices every profile alike. A day has one price (a price applies from its first day
 * on, never to earlier days), and a day row's hours are the same on every replica to the digit, so a cost is too:
 * computed from the figures served, never stored, it needs nothing but the topics and the catalog.
 */
public final class Costs {

    /** Booked, busy (used) and idle cost of some GPU-hours, each half-even to 6 decimals. */
    public record Cost(BigDecimal booked, BigDecimal busy, BigDecimal idle) {

        /** Nothing priced. */
        public static final Cost ZERO = new Cost(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

        public Cost plus(Cost other) {
            return new Cost(booked.add(other.booked), busy.add(other.busy), idle.add(other.idle));
        }
    }

    private final PoolCatalog pools;

    public Costs(PoolCatalog pools) {
        this.pools = pools;
    }

    /** The catalog's one currency; empty when no pool is priced (every cost is then 0). */
    public Optional<String> currency() {
        return pools.currency();
    }

    /** The cost of a day row: its pool's price on its day; zero for a pool without a price that day or unknown. */
    public Cost of(DayRow row) {
        return of(row.pool(), row.day(), row.figures());
    }

    /** The cost of {@code figures}, GPU-hours of {@code pool} on the UTC {@code day}. */
    public Cost of(String pool, LocalDate day, Figures figures) {
        return pools.find(pool)
                .flatMap(p -> p.priceOn(day))
                .map(price -> new Cost(
                        price.costOf(figures.booked()), price.costOf(figures.busy()), price.costOf(figures.idle())))
                .orElse(Cost.ZERO);
    }
}
