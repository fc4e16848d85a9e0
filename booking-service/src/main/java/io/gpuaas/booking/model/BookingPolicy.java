package io.gpuaas.booking.model;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The rules every booking window is checked against, besides capacity.
 *
 * @param maxDuration   longest window one booking may cover
 * @param maxAdvance    how far ahead of now a window may end
 * @param alignment     start and end must be multiples of this (e.g. 15 minutes) so the calendar stays tidy
 * @param tenantCap     the most units one tenant may hold on one pool at any instant, as a fraction of capacity
 *                      (1.0 = no cap beyond capacity)
 * @param pastTolerance how far in the past a start may lie when it reaches the decider (clock skew, queueing)
 */
public record BookingPolicy(
        Duration maxDuration, Duration maxAdvance, Duration alignment, double tenantCap, Duration pastTolerance) {

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

    public static final BookingPolicy DEFAULT = new BookingPolicy(
            Duration.ofDays(14), Duration.ofDays(90), Duration.ofMinutes(15), 1.0, Duration.ofMinutes(1));

    public BookingPolicy {
        if (maxDuration.isNegative() || maxDuration.isZero() || alignment.isNegative() || alignment.isZero()) {
            throw new IllegalArgumentException("maxDuration and alignment must be positive");
        }
        if (tenantCap <= 0 || tenantCap > 1.0) {
            throw new IllegalArgumentException("tenantCap must be in (0, 1]");
        }
    }

    /** Units one tenant may hold at once on a pool of {@code capacity}. */
    public int tenantLimit(int capacity) {
        return Math.max(1, (int) Math.floor(capacity * tenantCap));
    }

    /** The first rule {@code [start, end)} of {@code quantity} units on a pool of {@code capacity} breaks, if any. */
    public Optional<Violation> check(Instant start, Instant end, int quantity, int capacity, Instant now) {
        if (quantity <= 0 || quantity > capacity) {
            return violation(
                    Rejection.INVALID_QUANTITY,
                    "quantity must be between 1 and the pool capacity " + capacity + ", got " + quantity);
        }
        if (start == null || end == null || !start.isBefore(end)) {
            return violation(Rejection.INVALID_WINDOW, "start must be before end");
        }
        if (start.isBefore(now.minus(pastTolerance))) {
            return violation(Rejection.START_IN_PAST, "start " + start + " lies in the past");
        }
        return checkShape(start, end, now);
    }

    /**
     * The rules a book-now window {@code [now, end)} breaks, if any: its start is the decision's instant, so only its
     * end must be aligned, and its length counts from the first aligned instant (the rest of the slot {@code now} falls
     * in is not counted, so the longest booking may still be booked at 13:53).
     */
    public Optional<Violation> checkNow(Instant now, Instant end, int quantity, int capacity) {
        if (quantity <= 0 || quantity > capacity) {
            return violation(
                    Rejection.INVALID_QUANTITY,
                    "quantity must be between 1 and the pool capacity " + capacity + ", got " + quantity);
        }
        if (end == null || !now.isBefore(end)) {
            return violation(Rejection.INVALID_WINDOW, "end must be after now");
        }
        return checkShape(now, end, now, false);
    }

    /**
     * The rules a move of a booking from {@code currentStart} to {@code [start, end)} breaks, if any: a kept start
     * may lie in the past (the booking may be running) and off the alignment (it was booked now), a moved one is
     * checked like a new booking's.
     */
    public Optional<Violation> checkMove(Instant currentStart, int quantity, Instant start, Instant end, Instant now) {
        if (!start.equals(currentStart)) {
            return check(start, end, quantity, Integer.MAX_VALUE, now);
        }
        if (end == null || !start.isBefore(end)) {
            return violation(Rejection.INVALID_WINDOW, "start must be before end");
        }
        return checkShape(start, end, now, false);
    }

    /** A length given instead of an end: positive and at most {@code maxDuration}. */
    public Optional<Violation> checkDuration(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return violation(Rejection.INVALID_WINDOW, "duration must be positive");
        }
        if (duration.compareTo(maxDuration) > 0) {
            return violation(Rejection.POLICY_MAX_DURATION, "a booking may last at most " + maxDuration);
        }
        return Optional.empty();
    }

    /** The rules on the window's shape alone: duration, advance and alignment. */
    public Optional<Violation> checkShape(Instant start, Instant end, Instant now) {
        return checkShape(start, end, now, true);
    }

    private Optional<Violation> checkShape(Instant start, Instant end, Instant now, boolean startAligned) {
        if (Duration.between(alignUp(start), end).compareTo(maxDuration) > 0) {
            return violation(Rejection.POLICY_MAX_DURATION, "a booking may last at most " + maxDuration);
        }
        if (end.isAfter(now.plus(maxAdvance))) {
            return violation(Rejection.POLICY_MAX_ADVANCE, "a booking must end within " + maxAdvance + " from now");
        }
        if ((startAligned && !isAligned(start)) || !isAligned(end)) {
            return violation(Rejection.POLICY_ALIGNMENT, "start and end must be multiples of " + alignment);
        }
        return Optional.empty();
    }

    /**
     * The end of a window of {@code duration} from {@code start}: start + duration rounded up to the next multiple of
     * the alignment (13:53 + PT2H with 15 minutes is 16:00). {@code duration} must have passed
     * {@link #checkDuration}.
     */
    public Instant endAfter(Instant start, Duration duration) {
        return alignUp(start.plus(duration));
    }

    /** The first multiple of the alignment at or after {@code t}. */
    public Instant alignUp(Instant t) {
        BigInteger nanos = nanos(t);
        BigInteger over = nanos.mod(nanos(alignment));
        return over.signum() == 0 ? t : instant(nanos.subtract(over).add(nanos(alignment)));
    }

    /**
     * Whether {@code t} is a whole multiple of the alignment since the epoch, to the nanosecond: a check on
     * milliseconds let {@code 12:00:00.000000999Z} pass as {@code 12:00}.
     */
    public boolean isAligned(Instant t) {
        return nanos(t).mod(nanos(alignment)).signum() == 0;
    }

    private static BigInteger nanos(Instant t) {
        return BigInteger.valueOf(t.getEpochSecond()).multiply(NANOS_PER_SECOND).add(BigInteger.valueOf(t.getNano()));
    }

    private static BigInteger nanos(Duration d) {
        return BigInteger.valueOf(d.getSeconds()).multiply(NANOS_PER_SECOND).add(BigInteger.valueOf(d.getNano()));
    }

    private static Instant instant(BigInteger nanos) {
        BigInteger[] secondsAndNanos = nanos.divideAndRemainder(NANOS_PER_SECOND);
        return Instant.ofEpochSecond(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValue());
    }

    private static Optional<Violation> violation(Rejection rule, String message) {
        return Optional.of(new Violation(rule, message));
    }

    /** A broken rule and why. */
    public record Violation(Rejection rule, String message) {}
}
