package io.gpuaas.events.pool;

import java.time.Duration;
import java.time.Instant;

/**
 * A pool's approval policy: a booking larger than {@code overUnitHours} waits for an admin in state
 * {@code PENDING_APPROVAL}, holding its units for at most {@code hold} (never past its start).
 *
 * <p>The size is units × hours of the window. On a static pool a unit counts 1 whatever it is (a MIG pool's slice
 * too: the threshold is in the pool's own units); on a flexible pool a unit weighs its share of a GPU
 * ({@link Pool#gpuFraction(String)}: a {@code 3g.71gb} on an H200 is 1/2), so the threshold is in GPU-hours there.
 *
 * @param overUnitHours bookings over this size need approval; must be positive
 * @param hold          how long a booking awaits approval before it expires (e.g. {@code PT24H}); must be positive
 */
public record PoolApproval(double overUnitHours, Duration hold) {

    public PoolApproval {
        if (!(overUnitHours > 0) || Double.isInfinite(overUnitHours)) {
            throw new IllegalArgumentException("approval.overUnitHours must be a positive number");
        }
        if (hold == null || hold.isNegative() || hold.isZero()) {
            throw new IllegalArgumentException("approval.hold must be a positive duration");
        }
    }

    /**
     * The size of {@code quantity} units of {@code profile} on {@code pool} for {@code [start, end)}, as the
     * threshold measures it.
     */
    public static double unitHours(Pool pool, String profile, int quantity, Instant start, Instant end) {
        double hours = Duration.between(start, end).toMillis() / 3_600_000.0;
        double unit = pool.flexible() ? pool.gpuFraction(profile) : 1.0;
        return quantity * unit * hours;
    }

    /** Whether a booking of {@code unitHours} needs approval under this policy. */
    public boolean needsApproval(double unitHours) {
        return unitHours > overUnitHours;
    }

    /** Until when a booking decided at {@code decidedAt} and starting at {@code start} may await approval. */
    public Instant holdUntil(Instant decidedAt, Instant start) {
        Instant held = decidedAt.plus(hold);
        return held.isBefore(start) ? held : start;
    }
}
