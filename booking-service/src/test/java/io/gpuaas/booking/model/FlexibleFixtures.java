package io.gpuaas.booking.model;

import static io.gpuaas.booking.model.Fixtures.NOW;

import io.gpuaas.events.booking.BookingCommand.ChangeBooking;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.gpuaas.events.pool.PoolNode;
import java.time.Instant;
import java.util.List;

/** Flexible pools and their commands for the decision tests: the tests' own catalog, not the shipped one. */
final class FlexibleFixtures {

    static final String FLEX = "h200-flex";
    static final String ONE_GPU = "h200-one";
    static final Pool FLEX_POOL =
            Pool.flexible(FLEX, "h200-flex", "NVIDIA H200", null, List.of(new PoolNode("gpu-node-3", 2)));
    static final Pool ONE_GPU_POOL =
            Pool.flexible(ONE_GPU, "h200-one", "NVIDIA H200", null, List.of(new PoolNode("gpu-node-5", 1)));
    static final PoolCatalog POOLS = new PoolCatalog(List.of(
            FLEX_POOL,
            ONE_GPU_POOL,
            new Pool("h200-mig-2g.35gb", "h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb", 9, "NVIDIA H200", "2g.35gb")));

    private FlexibleFixtures() {}

    static CreateBooking create(
            String pool, String id, Caller caller, String profile, int quantity, Instant start, Instant end) {
        return new CreateBooking(
                "req-" + id,
                null,
                caller,
                pool,
                id,
                caller.tenant(),
                quantity,
                start,
                end,
                null,
                NOW,
                null,
                null,
                profile);
    }

    static ChangeBooking change(String pool, String id, Caller caller, Instant start, Instant end) {
        return new ChangeBooking("chg-" + id + "-" + end, null, caller, pool, id, start, end, NOW);
    }
}
