package io.gpuaas.booking.http;

import io.gpuaas.booking.config.HttpLimits;
import io.gpuaas.booking.model.BookingDecider;
import io.gpuaas.booking.model.BookingPolicy;
import io.gpuaas.events.booking.Caller;
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
import java.time.Duration;
import java.time.Instant;

/**
 * Flexible pools: how many units of each MIG profile (and whole GPUs) fit per step, the earliest start of a booking,
 * and, for admins, where each booking was placed and what each GPU runs over time. Answered from
 * {@link FlexiblePools}; a static pool is 422 {@code POOL_NOT_FLEXIBLE} (its one kind of unit is in
 * {@code /availability}).
 */
@Controller("/api/v1/pools")
@Secured(SecurityRule.IS_AUTHENTICATED)
public class FleetController {

    /** The widest range one per-profile, placements or layouts query may cover. */
    static final Duration MAX_RANGE = Duration.ofDays(14);

    private final PoolCatalog pools;
    private final FlexiblePools fleets;
    private final CallerGuard guard;
    private final BookingPolicy policy;
    private final RequestValidator validator;
    private final HttpLimits limits;

    public FleetController(
            PoolCatalog pools, FlexiblePools fleets, CallerGuard guard, BookingDecider decider, HttpLimits limits) {
        this.pools = pools;
        this.fleets = fleets;
        this.guard = guard;
        this.policy = decider.policy();
        this.validator = new RequestValidator(policy);
        this.limits = limits;
    }

    @Operation(
            summary =
                    "Flexible pool: per profile (and whole GPUs) how many more units fit over each step of [from, to)",
            description = "from/to RFC 3339 (default: this hour, a day); step ISO 8601 from PT1M (default PT1H); "
                    + "at most 14 days and max-slots steps. A unit counts when it fits for the whole step. "
                    + "A static pool: 422 POOL_NOT_FLEXIBLE.")
    @Get(uri = "/{id}/profile-availability", produces = MediaType.APPLICATION_JSON)
    public FleetAnswers.ProfileAvailability profileAvailability(
            @PathVariable String id,
            @Nullable String from,
            @Nullable String to,
            @Nullable String step,
            Authentication authentication) {
        guard.admit(authentication);
        Pool pool = pool(id);
        Instant now = Instant.now();
        Duration stepSize =
                RequestValidator.duration("INVALID_STEP", "step", step, RequestValidator.MIN_STEP, MAX_RANGE);
        Duration s = stepSize == null ? Duration.ofHours(1) : stepSize;
        Instant hour = Instant.ofEpochSecond(Math.floorDiv(now.getEpochSecond(), 3600) * 3600);
        Range range = range(from, to, hour, Duration.ofDays(1), now);
        long steps = (Duration.between(range.from(), range.to()).toNanos() + s.toNanos() - 1) / s.toNanos();
        if (steps > limits.maxSlots()) {
            throw ProblemException.badRequest(
                    "TOO_MANY_STEPS", "step", "at most " + limits.maxSlots() + " steps per query, asked for " + steps);
        }
        return fleets.read(pool, fleet -> FleetReports.availability(fleet, range.from(), range.to(), s));
    }

    @Operation(
            summary =
                    "Flexible pool: the earliest start at or after from when quantity units of profile fit for duration",
            description = "profile: a bookable MIG profile of the pool (absent: whole GPUs); quantity 1.. (default "
                    + "1); duration from the alignment to max-duration (required); from RFC 3339 (default now; "
                    + "rounded up to the alignment); horizon ISO 8601 after from (default and most: max-advance). "
                    + "start is null when nothing fits in the horizon.")
    @Get(uri = "/{id}/earliest-start", produces = MediaType.APPLICATION_JSON)
    public FleetAnswers.EarliestStart earliestStart(
            @PathVariable String id,
            @Nullable String profile,
            @Nullable String quantity,
            @Nullable String duration,
            @Nullable String from,
            @Nullable String horizon,
            Authentication authentication) {
        guard.admit(authentication);
        Pool pool = pool(id);
        String kind = profile(pool, profile);
        int count = RequestValidator.integer("INVALID_QUANTITY", "quantity", quantity, 1, 10_000, 1);
        if (duration == null) {
            throw ProblemException.badRequest("REQUIRED", "duration", "duration is required, e.g. PT4H");
        }
        Duration length = RequestValidator.duration(
                "INVALID_DURATION", "duration", duration, policy.alignment(), policy.maxDuration());
        Duration ahead = RequestValidator.duration(
                "INVALID_HORIZON", "horizon", horizon, policy.alignment(), policy.maxAdvance());
        Instant now = Instant.now();
        Instant asked = validator.queryInstant("from", from, now);
        Instant begin = policy.alignUp(asked == null || asked.isBefore(now) ? now : asked);
        Instant last = begin.plus(ahead == null ? policy.maxAdvance() : ahead);
        Instant limit = now.plus(policy.maxAdvance());
        Instant until = last.isAfter(limit) ? limit : last;
        Instant start =
                fleets.read(pool, fleet -> fleet.earliestStart(FleetReports.kind(kind), count, length, begin, until)
                        .orElse(null));
        return new FleetAnswers.EarliestStart(
                pool.id(),
                kind,
                pool.resourceFor(kind),
                count,
                length,
                begin,
                until,
                start,
                start == null ? null : start.plus(length));
    }

    @Operation(
            summary = "Admin: every CONFIRMED/ACTIVE booking of a flexible pool meeting [from, to), with its units",
            description = "from/to RFC 3339 (default: now, 7 days), at most 14 days. Tenants: 403 ADMIN_ONLY.")
    @Get(uri = "/{id}/placements", produces = MediaType.APPLICATION_JSON)
    public FleetAnswers.Placements placements(
            @PathVariable String id, @Nullable String from, @Nullable String to, Authentication authentication) {
        adminOnly(guard.admit(authentication));
        Pool pool = pool(id);
        Instant now = Instant.now();
        Range range = range(from, to, now, Duration.ofDays(7), now);
        return fleets.read(pool, fleet -> FleetReports.placements(fleet, range.from(), range.to()));
    }

    @Operation(
            summary = "Admin: each GPU's layout of a flexible pool at from and at every change in (from, to)",
            description = "from/to RFC 3339 (default: now, 7 days), at most 14 days and " + FleetReports.MAX_CHANGES
                    + " changes (then truncated). Tenants: 403 ADMIN_ONLY.")
    @Get(uri = "/{id}/layouts", produces = MediaType.APPLICATION_JSON)
    public FleetAnswers.Layouts layouts(
            @PathVariable String id, @Nullable String from, @Nullable String to, Authentication authentication) {
        adminOnly(guard.admit(authentication));
        Pool pool = pool(id);
        Instant now = Instant.now();
        Range range = range(from, to, now, Duration.ofDays(7), now);
        return fleets.read(pool, fleet -> FleetReports.layouts(fleet, range.from(), range.to()));
    }

    private record Range(Instant from, Instant to) {}

    private Range range(String from, String to, Instant defaultFrom, Duration defaultLength, Instant now) {
        Instant f = validator.queryInstant("from", from, now);
        Instant begin = f == null ? defaultFrom : f;
        Instant t = validator.queryInstant("to", to, now);
        Instant end = t == null ? begin.plus(defaultLength) : t;
        if (!begin.isBefore(end)) {
            throw ProblemException.badRequest("INVALID_WINDOW", "to", "from must be before to");
        }
        if (Duration.between(begin, end).compareTo(MAX_RANGE) > 0) {
            throw ProblemException.badRequest("RANGE_TOO_WIDE", "to", "at most " + MAX_RANGE + " from from to to");
        }
        return new Range(begin, end);
    }

    /** The pool, 404 UNKNOWN_POOL when there is none, 422 POOL_NOT_FLEXIBLE when it is static. */
    private Pool pool(String id) {
        Pool pool = pools.find(id)
                .orElseThrow(() -> new ProblemException(
                        404,
                        "UNKNOWN_POOL",
                        "id",
                        id.length() <= RequestValidator.MAX_ID ? "no pool " + id : "no pool with that id"));
        FlexiblePools.requireFlexible(pool);
        return pool;
    }

    /** The profile as asked: null (whole GPUs) or one the pool offers; 400 UNKNOWN_PROFILE otherwise. */
    private static String profile(Pool pool, String profile) {
        if (profile == null || profile.isEmpty()) {
            return null;
        }
        if (pool.bookableProfiles().contains(profile)) {
            return profile;
        }
        throw ProblemException.badRequest(
                "UNKNOWN_PROFILE",
                "profile",
                "pool " + pool.id() + " offers " + pool.bookableProfiles() + " or whole GPUs (no profile)");
    }

    private static void adminOnly(Caller caller) {
        if (!caller.admin()) {
            throw new ProblemException(403, "ADMIN_ONLY", null, "only the admin role reads placements and layouts");
        }
    }
}
