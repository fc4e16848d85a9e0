package io.gpuaas.reclaim.model;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * At most {@code maxPerMinute} reclaim actions in any sliding minute of wall-clock time: a bad metrics day must not
 * scale down a whole fleet at once. Per applier instance and not persisted: after a restart the budget starts full,
 * so N replicas allow up to N times the cap.
 */
public final class ActionRateLimiter {

    private static final long MINUTE = 60_000L;

    private final int maxPerMinute;
    private final LongSupplier clock;
    private final Deque<Long> taken = new ArrayDeque<>();

    public ActionRateLimiter(int maxPerMinute, LongSupplier clockMillis) {
        if (maxPerMinute <= 0) {
            throw new IllegalArgumentException("maxPerMinute must be positive, got " + maxPerMinute);
        }
        this.maxPerMinute = maxPerMinute;
        this.clock = clockMillis;
    }

    /** How long until {@link #tryAcquire} can succeed again: 0 when it can now. */
    public synchronized long millisUntilFree() {
        long now = clock.getAsLong();
        while (!taken.isEmpty() && now - taken.peekFirst() >= MINUTE) {
            taken.pollFirst();
        }
        return taken.size() < maxPerMinute ? 0 : taken.peekFirst() + MINUTE - now;
    }

    /** Takes one action from the budget if there is one left in the current minute. */
    public synchronized boolean tryAcquire() {
        long now = clock.getAsLong();
        while (!taken.isEmpty() && now - taken.peekFirst() >= MINUTE) {
            taken.pollFirst();
        }
        if (taken.size() >= maxPerMinute) {
            return false;
        }
        taken.addLast(now);
        return true;
    }
}
