package io.gpuaas.quota.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The pure heart of the projector: which Kueue quota should exist at an instant, given the bookings, the pool
 * catalog and the tenants' namespaces. No clock, no I/O, so it is tested exhaustively without any server.
 */
public final class QuotaPlan {

    /** Prefix of every tenant ClusterQueue. */
    public static final String CLUSTER_QUEUE_PREFIX = "gpuaas-";

    // A ClusterQueue name is a DNS-1123 subdomain; keeping tenants to labels also keeps label values valid.
    private static final Pattern TENANT = Pattern.compile("[a-z0-9]([-a-z0-9]{0,53}[a-z0-9])?");

    private QuotaPlan() {}

    public static String clusterQueueName(String tenant) {
        return CLUSTER_QUEUE_PREFIX + tenant;
    }

    /**
     * The desired quota at {@code at}.
     *
     * @param bookings          every known booking (any state; only those holding capacity at {@code at} count)
     * @param catalog           the pools, giving the physical capacity per flavor and resource
     * @param tenantNamespaces  tenant to the namespaces labelled {@code gpuaas.io/tenant=<tenant>}
     */
    public static DesiredQuota at(
            Instant at,
            Collection<Booking> bookings,
            PoolCatalog catalog,
            Map<String, ? extends Set<String>> tenantNamespaces) {
        return at(at, bookings, catalog, tenantNamespaces, Map.of());
    }

    /**
     * The desired quota at {@code at}, a flexible pool's capacity per resource being the layouts in force.
     *
     * @param inForce per flexible flavor and resource, the units its nodes offer now (their allocatable
     *                {@code nvidia.com/gpu} and {@code nvidia.com/mig-<profile>}), never the planned layouts: Kueue
     *                must not lend slices that do not exist. A flexible flavor without any entry counts as laid out
     *                all whole (the GPU Operator's {@code all-disabled}): its GPUs as {@code nvidia.com/gpu}, no
     *                slices.
     */
    public static DesiredQuota at(
            Instant at,
            Collection<Booking> bookings,
            PoolCatalog catalog,
            Map<String, ? extends Set<String>> tenantNamespaces,
            Map<FlavorResource, Long> inForce) {
        return at(at, bookings, catalog, tenantNamespaces, inForce, Duration.ZERO);
    }

    /**
     * The desired quota at {@code at}, with the tenants' LocalQueues and HardwareProfiles wanted {@code queueLead}
     * before their windows: a booking counts for its tenant's {@link DesiredQuota#queues()} from {@code start −
     * queueLead} to its end, for the ClusterQueue's quota from its start to its end, as always.
     */
    public static DesiredQuota at(
            Instant at,
            Collection<Booking> bookings,
            PoolCatalog catalog,
            Map<String, ? extends Set<String>> tenantNamespaces,
            Map<FlavorResource, Long> inForce,
            Duration queueLead) {
        SortedMap<FlavorResource, Long> capacity = capacities(catalog, inForce);
        SortedMap<String, Accumulator> byTenant = new TreeMap<>();
        SortedMap<String, Accumulator> queuesByTenant = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        Instant ahead = at.plus(queueLead);
        for (Booking booking : bookings) {
            if (booking.activeAt(at)) {
                accept(booking, capacity, byTenant, problems);
            }
            if (booking.state().holdsCapacity() && !ahead.isBefore(booking.start()) && at.isBefore(booking.end())) {
                accept(booking, capacity, queuesByTenant, new ArrayList<>()); // its problems are reported above
            }
        }
        SortedMap<String, TenantQueue> tenants = queues(byTenant, tenantNamespaces);
        SortedMap<String, TenantQueue> queues = queueLead.isZero() ? tenants : queues(queuesByTenant, tenantNamespaces);
        SortedMap<FlavorResource, Long> cohort = new TreeMap<>();
        capacity.forEach((cell, physical) -> {
            long reserved =
                    tenants.values().stream().mapToLong(t -> t.nominal(cell)).sum();
            if (reserved > physical) {
                problems.add("over capacity on " + cell.flavor() + "/" + cell.resource() + ": reserved " + reserved
                        + " of " + physical);
            }
            cohort.put(cell, Math.max(0, physical - reserved));
        });
        return new DesiredQuota(
                at,
                Collections.unmodifiableSortedMap(capacity),
                Collections.unmodifiableSortedMap(cohort),
                Collections.unmodifiableSortedMap(tenants),
                Collections.unmodifiableSortedMap(queues),
                List.copyOf(problems));
    }

    private static SortedMap<String, TenantQueue> queues(
            SortedMap<String, Accumulator> byTenant, Map<String, ? extends Set<String>> tenantNamespaces) {
        SortedMap<String, TenantQueue> queues = new TreeMap<>();
        byTenant.forEach((tenant, acc) -> queues.put(tenant, acc.toQueue(tenant, tenantNamespaces.get(tenant))));
        return queues;
    }

    /**
     * The first instant after {@code after} at which some booking holding capacity starts or ends, or enters the
     * queue lead ({@code start − queueLead}).
     */
    public static Optional<Instant> nextBoundary(Collection<Booking> bookings, Instant after, Duration queueLead) {
        Instant next = null;
        for (Booking booking : bookings) {
            if (!booking.state().holdsCapacity()) {
                continue;
            }
            next = earlier(next, booking.start(), after);
            next = earlier(next, booking.end(), after);
            if (!queueLead.isZero() && booking.start() != null) {
                next = earlier(next, booking.start().minus(queueLead), after);
            }
        }
        return Optional.ofNullable(next);
    }

    /** The first instant after {@code after} at which some booking holding capacity starts or ends. */
    public static Optional<Instant> nextBoundary(Collection<Booking> bookings, Instant after) {
        return nextBoundary(bookings, after, Duration.ZERO);
    }

    private static Instant earlier(Instant best, Instant candidate, Instant after) {
        if (candidate == null || !candidate.isAfter(after)) {
            return best;
        }
        return best == null || candidate.isBefore(best) ? candidate : best;
    }

    private static SortedMap<FlavorResource, Long> capacities(PoolCatalog catalog, Map<FlavorResource, Long> inForce) {
        SortedMap<FlavorResource, Long> capacity = new TreeMap<>();
        for (Pool pool : catalog.pools()) {
            if (!pool.flexible()) {
                capacity.merge(new FlavorResource(pool.flavor(), pool.resource()), (long) pool.capacity(), Long::sum);
                continue;
            }
            boolean observed =
                    inForce.keySet().stream().anyMatch(c -> c.flavor().equals(pool.flavor()));
            // Every resource the pool can be booked by is a cell, 0 while no GPU offers it: the queues' shape stays
            // the same whatever the layouts.
            List<String> resources = new ArrayList<>();
            resources.add(pool.resourceFor(null));
            pool.bookableProfiles().forEach(p -> resources.add(pool.resourceFor(p)));
            for (String resource : resources) {
                FlavorResource cell = new FlavorResource(pool.flavor(), resource);
                long units = observed
                        ? inForce.getOrDefault(cell, 0L)
                        : resource.equals(Pool.WHOLE_GPU_RESOURCE) ? pool.capacity() : 0L;
                capacity.merge(cell, units, Long::sum);
            }
        }
        return capacity;
    }

    private static void accept(
            Booking booking,
            Map<FlavorResource, Long> capacity,
            Map<String, Accumulator> byTenant,
            List<String> problems) {
        FlavorResource cell = new FlavorResource(booking.flavor(), booking.resource());
        if (!capacity.containsKey(cell)) {
            problems.add("booking " + booking.id() + ": no pool for " + cell.flavor() + "/" + cell.resource());
            return;
        }
        if (booking.tenant() == null || !TENANT.matcher(booking.tenant()).matches()) {
            problems.add("booking " + booking.id() + ": tenant '" + booking.tenant() + "' is not a DNS label");
            return;
        }
        Accumulator acc = byTenant.computeIfAbsent(booking.tenant(), t -> new Accumulator());
        acc.nominal.merge(cell, (long) booking.quantity(), Long::sum);
        if (booking.namespace() != null && !booking.namespace().isBlank()) {
            acc.namespaces.add(booking.namespace());
        }
    }

    private static final class Accumulator {
        private final SortedMap<FlavorResource, Long> nominal = new TreeMap<>();
        private final TreeSet<String> namespaces = new TreeSet<>();

        TenantQueue toQueue(String tenant, Set<String> labelled) {
            if (labelled != null) {
                namespaces.addAll(labelled);
            }
            return new TenantQueue(
                    tenant,
                    clusterQueueName(tenant),
                    Collections.unmodifiableSortedMap(nominal),
                    Collections.unmodifiableSortedSet(namespaces));
        }
    }
}
