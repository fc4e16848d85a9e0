package io.gpuaas.booking.http;

import io.gpuaas.booking.kafka.BookingView;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One {@link FleetReplica} per flexible pool, kept current from {@link BookingView} (the compacted {@code bookings}
 * topic and the decisions this instance reads). Each read first applies the states newer than the replica holds, so
 * an answer reflects every booking the view had when it was asked, including one confirmed to this caller a moment
 * ago. Reads of one pool are serialised; pools do not wait for each other.
 */
@Singleton
public class FlexiblePools {

    private final BookingView view;
    private final Map<String, FleetReplica> replicas = new LinkedHashMap<>();

    public FlexiblePools(PoolCatalog pools, BookingView view) {
        this.view = view;
        for (Pool pool : pools.pools()) {
            if (pool.flexible()) {
                replicas.put(pool.id(), new FleetReplica(pool));
            }
        }
    }

    /** Runs {@code query} on the flexible pool's replica, brought up to date first; 422 for a static pool. */
    <T> T read(Pool pool, Function<FleetReplica, T> query) {
        requireFlexible(pool);
        FleetReplica replica = replicas.get(pool.id());
        synchronized (replica) {
            replica.applyAll(view.all());
            return query.apply(replica);
        }
    }

    /** 422 POOL_NOT_FLEXIBLE for a static pool. */
    static void requireFlexible(Pool pool) {
        if (!pool.flexible()) {
            throw new ProblemException(
                    422,
                    "POOL_NOT_FLEXIBLE",
                    "id",
                    "pool " + pool.id() + " is static: its units are of one kind, see /api/v1/pools/" + pool.id()
                            + "/availability");
        }
    }
}
