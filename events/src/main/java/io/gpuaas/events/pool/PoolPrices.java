package io.gpuaas.events.pool;

import java.util.List;

/** The rules of a pool's price schedule, checked when the catalog is loaded rather than when a cost is read. */
final class PoolPrices {

    private PoolPrices() {}

    /**
     * {@code prices} as an immutable list (empty for none), or a refusal naming the pool: a null entry, an entry
     * without a first day after the first entry, first days not strictly ascending, or two currencies.
     */
    static List<PoolPrice> check(String pool, List<PoolPrice> prices) {
        if (prices == null) {
            return List.of();
        }
        if (prices.stream().anyMatch(java.util.Objects::isNull)) {
            throw new IllegalArgumentException("pool " + pool + ": a price entry is empty");
        }
        for (int i = 1; i < prices.size(); i++) {
            PoolPrice before = prices.get(i - 1);
            PoolPrice price = prices.get(i);
            if (price.from() == null) {
                throw new IllegalArgumentException(
                        "pool " + pool + ": only the first price may omit from (each later one says when it starts)");
            }
            if (before.from() != null && !price.from().isAfter(before.from())) {
                throw new IllegalArgumentException("pool " + pool + ": prices must be in ascending order of from, "
                        + price.from() + " follows " + before.from());
            }
            if (!price.currency().equals(before.currency())) {
                throw new IllegalArgumentException("pool " + pool + ": prices in " + before.currency() + " and "
                        + price.currency() + "; a catalog prices in one currency");
            }
        }
        return List.copyOf(prices);
    }
}
