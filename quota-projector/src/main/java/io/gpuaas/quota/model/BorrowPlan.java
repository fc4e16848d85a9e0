package io.gpuaas.quota.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which over-budget tenants get a borrow-only queue, and on which cells. Pure, like {@link QuotaPlan}: the budgets
 * come in as the set of tenants over budget in the plan's month.
 *
 * <p>A tenant over its budget for the current UTC month may still run work that borrows idle capacity of the pools
 * whose catalog entry says {@code overBudget: {borrow: true}}: its queue lists only their cells, with nominal quota
 * 0, so nothing it runs there is ever a booking's guaranteed quota, and Kueue's reclaim gives the capacity back to
 * booked tenants when they need it.
 */
public final class BorrowPlan {

    /** Suffix of a borrow-only ClusterQueue: {@code gpuaas-<tenant>.borrowed}; a tenant id never holds a dot. */
    public static final String CLUSTER_QUEUE_SUFFIX = ".borrowed";

    private static final Pattern TENANT = Pattern.compile("[a-z0-9]([-a-z0-9]{0,53}[a-z0-9])?");

    private BorrowPlan() {}

    public static String clusterQueueName(String tenant) {
        return QuotaPlan.clusterQueueName(tenant) + CLUSTER_QUEUE_SUFFIX;
    }

    /** Whether {@code name} is a borrow-only ClusterQueue's. */
    public static boolean isBorrowQueue(String name) {
        return name.startsWith(QuotaPlan.CLUSTER_QUEUE_PREFIX) && name.endsWith(CLUSTER_QUEUE_SUFFIX);
    }

    /** The UTC calendar month of {@code at}: the month whose budget counts. */
    public static YearMonth month(Instant at) {
        return YearMonth.from(at.atZone(ZoneOffset.UTC));
    }

    /** The first instant of the month after {@code at}'s: when every tenant's budget month turns. */
    public static Instant nextMonth(Instant at) {
        return month(at).plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /** The cells over-budget work may borrow: every cell of a pool whose policy allows it. */
    public static SortedSet<FlavorResource> cells(PoolCatalog catalog, Set<FlavorResource> allCells) {
        SortedSet<FlavorResource> cells = new TreeSet<>();
        for (Pool pool : catalog.pools()) {
            if (pool.overBudgetMayBorrow()) {
                // A flexible pool's cells are its flavor's resources, whatever its layouts.
                allCells.stream().filter(c -> c.flavor().equals(pool.flavor())).forEach(cells::add);
            }
        }
        return Collections.unmodifiableSortedSet(cells);
    }

    /**
     * The borrow-only queues wanted: one per tenant in {@code overBudget} that has somewhere to submit (a namespace),
     * none at all when no pool allows borrowing.
     *
     * @param overBudget       tenants whose budget for the plan's month is spent ({@code TenantBudget.overBudget})
     * @param bookings         the bookings known (their namespaces count as the tenant's)
     * @param tenantNamespaces tenant to the namespaces labelled {@code gpuaas.io/tenant=<tenant>}
     */
    public static SortedMap<String, BorrowQueue> queues(
            Set<String> overBudget,
            SortedSet<FlavorResource> cells,
            Collection<Booking> bookings,
            Map<String, ? extends Set<String>> tenantNamespaces) {
        SortedMap<String, BorrowQueue> queues = new TreeMap<>();
        if (cells.isEmpty()) {
            return queues;
        }
        for (String tenant : overBudget) {
            if (tenant == null || !TENANT.matcher(tenant).matches()) {
                continue;
            }
            SortedSet<String> namespaces = new TreeSet<>();
            Set<String> labelled = tenantNamespaces.get(tenant);
            if (labelled != null) {
                namespaces.addAll(labelled);
            }
            bookings.stream()
                    .filter(b -> tenant.equals(b.tenant()))
                    .map(Booking::namespace)
                    .filter(ns -> ns != null && !ns.isBlank())
                    .forEach(namespaces::add);
            if (!namespaces.isEmpty()) {
                queues.put(
                        tenant,
                        new BorrowQueue(
                                tenant, clusterQueueName(tenant), Collections.unmodifiableSortedSet(namespaces)));
            }
        }
        return queues;
    }
}
