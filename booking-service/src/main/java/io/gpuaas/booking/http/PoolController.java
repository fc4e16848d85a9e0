package io.gpuaas.booking.http;

import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Instant;
import java.util.List;

/** The pools and their free units over time. */
@Controller("/api/v1/pools")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class PoolController {

    private final PoolCatalog pools;
    private final Availability availability;
    private final CallerGuard guard;

    public PoolController(PoolCatalog pools, Availability availability, CallerGuard guard) {
        this.pools = pools;
        this.availability = availability;
        this.guard = guard;
    }

    @Operation(summary = "Every pool: id, flavor, resource, capacity")
    @Get(produces = MediaType.APPLICATION_JSON)
    public List<Pool> list(Authentication authentication) {
        guard.admit(authentication);
        return pools.pools();
    }

    @Operation(
            summary = "Free units per step over [from, to); with quantity and duration also the earliest start "
                    + "at which that many units stay free for that long",
            description = "from/to: RFC 3339 within "
                    + "max-advance + max-duration of now; step: ISO 8601 from PT1M, at most max-slots (2000) steps; "
                    + "duration: from the alignment (PT15M) to max-duration (P14D); quantity: 1 to the pool capacity. "
                    + "A unit is the pool's resource (the answer's resource). On a flexible pool it is a whole GPU, "
                    + "what a booking without profile books there: free is how many whole GPUs still fit for the "
                    + "whole step and firstFit the placement rule's earliest start, counted from the bookings' "
                    + "placements, so a GPU holding any MIG instance (a 3g.71gb, a 1g.18gb) is not free. "
                    + "Per MIG profile: /api/v1/pools/{id}/profile-availability.")
    @Get(uri = "/{id}/availability", produces = MediaType.APPLICATION_JSON)
    public Availability.Report availability(
            @PathVariable String id,
            @Nullable String from,
            @Nullable String to,
            @Nullable String step,
            @Nullable String quantity,
            @Nullable String duration,
            Authentication authentication) {
        guard.admit(authentication);
        Pool pool = pools.find(id)
                .orElseThrow(() -> new ProblemException(
                        404,
                        "UNKNOWN_POOL",
                        "id",
                        id.length() <= RequestValidator.MAX_ID ? "no pool " + id : "no pool with that id"));
        Instant now = Instant.now();
        return availability.report(pool, availability.parse(from, to, step, quantity, duration, now), now);
    }
}
