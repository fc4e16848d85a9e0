package io.gpuaas.booking.model;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.pool.Pool;
import io.gpuaas.events.pool.PoolCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The lifecycle's decisions about ACTIVE bookings, a pure function of (tracked booking, Workloads seen, now): when a
 * {@link BookingEndingSoon} is due, when a {@link NoShowWarning}, and when a booking is released as a no-show. No
 * clock, no I/O; the stream processor applies each {@link LifecycleStep} and writes its output in one transaction.
 *
 * <ul>
 *   <li>Ending soon: a lead L is due at end − L, if that lies after the instant the booking became active with this
 *       end ({@link TrackedBooking#endArmedAt()}) and before its end. When several are due at once (the service was
 *       down), only the shortest is sent; the others are passed over.
 *   <li>No-show, per pool grace G (0 = off): counted from the later of the start and {@link
 *       TrackedBooking#watchedFrom()}. A Workload of the tenant admitted or pending on the pool at any time since the
 *       start ends the matter for good. Otherwise a warning at G/2 and the release command at G, unless the release
 *       would fall at or after the booking's end (then neither: the booking ends on its own).
 *   <li>Feed guard: a no-show warning or release is deferred while the Workload feed is stale, its
 *       {@link WorkloadPresence#feedWatermark()} absent or older than the staleness bound (quota-projector down: a
 *       Workload created meanwhile would be missing, and a booking in use would look unused). Once fresh, what is due
 *       is sent; a bound of zero turns the guard off.
 * </ul>
 */
public final class LifecycleRules {

    /** The system caller's subject on the release command. */
    public static final String RELEASE_COMPONENT = "no-show-release";

    private final List<Duration> leads;
    private final PoolCatalog pools;
    private final Duration defaultGrace;
    private final Duration feedStaleness;

    /** Rules without the feed guard (every Workload is taken to be on the topic in time). */
    public LifecycleRules(List<Duration> leads, PoolCatalog pools, Duration defaultGrace) {
        this(leads, pools, defaultGrace, Duration.ZERO);
    }

    /**
     * @param leads         ending-soon leads (any order, positive)
     * @param pools         the catalog, for each pool's {@link Pool#noShowGrace()}
     * @param defaultGrace  the grace of a pool that names none
     * @param feedStaleness how old the feed's watermark may be for a no-show warning or release to go out; zero: no
     *                      guard
     */
    public LifecycleRules(List<Duration> leads, PoolCatalog pools, Duration defaultGrace, Duration feedStaleness) {
        if (leads.stream().anyMatch(l -> l.isNegative() || l.isZero())
                || defaultGrace.isNegative()
                || feedStaleness.isNegative()) {
            throw new IllegalArgumentException(
                    "ending-soon leads must be positive, the grace and the feed staleness >= 0: " + leads);
        }
        this.leads = leads.stream().distinct().sorted().toList();
        this.pools = pools;
        this.defaultGrace = defaultGrace;
        this.feedStaleness = feedStaleness;
    }

    /**
     * Whether the Workload feed is known complete enough at {@code now} for a no-show to be judged: its watermark is
     * at most the staleness bound old (always, without a bound).
     */
    public boolean feedLive(WorkloadPresence workloads, Instant now) {
        if (feedStaleness.isZero()) {
            return true;
        }
        return workloads
                .feedWatermark()
                .map(mark -> !mark.isBefore(now.minus(feedStaleness)))
                .orElse(false);
    }

    /** The id in {@link TrackedBooking#done()} of a booking's no-show release; also its idempotency key. */
    public static String releaseId(String bookingId) {
        return "no-show:" + bookingId;
    }

    /** The no-show grace of {@code pool}: its own, else the default; zero means off. */
    public Duration graceOf(String pool) {
        Duration own = pools.find(pool).map(Pool::noShowGrace).orElse(null);
        return own != null ? own : defaultGrace;
    }

    /**
     * The tracking state after a booking state was read: empty when the booking is not ACTIVE (or no longer exists),
     * so nothing more is done for it; an older version than the one tracked changes nothing.
     *
     * @param previous what was tracked before, or null
     * @param latest   the state read, or null for a deleted booking
     */
    public Optional<TrackedBooking> track(TrackedBooking previous, Booking latest, Instant now) {
        if (latest == null || latest.state() != BookingState.ACTIVE) {
            return Optional.empty();
        }
        if (previous == null) {
            return Optional.of(TrackedBooking.first(latest, now));
        }
        if (latest.version() < previous.booking().version()) {
            return Optional.of(previous);
        }
        // Extended or shortened while active: leads count from the change, so the new end gets its own notices.
        boolean moved = !latest.end().equals(previous.booking().end());
        return Optional.of(previous.with(latest, moved ? latest.updatedAt() : previous.endArmedAt()));
    }

    /** One look at a tracked booking at {@code now}. */
    public LifecycleStep step(TrackedBooking tracked, WorkloadPresence workloads, Instant now) {
        Booking booking = tracked.booking();
        if (!now.isBefore(booking.end())) {
            return LifecycleStep.nothing(tracked);
        }
        List<Notice> notices = new ArrayList<>();
        TrackedBooking next = endingSoon(tracked, now, notices);
        Optional<ReleaseBooking> release = Optional.empty();
        Duration grace = graceOf(booking.pool());
        if (!grace.isZero() && !next.workloadSeen() && !next.done().contains(releaseId(booking.id()))) {
            NoShow noShow = noShow(next, grace, workloads, now, notices);
            next = noShow.tracked();
            release = noShow.release();
        }
        return new LifecycleStep(next, notices, release);
    }

    private TrackedBooking endingSoon(TrackedBooking tracked, Instant now, List<Notice> notices) {
        Booking b = tracked.booking();
        Set<String> due = new TreeSet<>();
        Duration shortest = null;
        for (Duration lead : leads) {
            Instant at = b.end().minus(lead);
            String id = Notice.endingSoonId(b.id(), lead, b.end());
            if (!at.isAfter(now)
                    && at.isAfter(tracked.endArmedAt())
                    && !tracked.done().contains(id)) {
                due.add(id);
                shortest = shortest == null ? lead : shortest;
            }
        }
        if (shortest == null) {
            return tracked;
        }
        notices.add(new BookingEndingSoon(
                Notice.endingSoonId(b.id(), shortest, b.end()),
                b.id(),
                b.tenant(),
                b.namespace(),
                b.pool(),
                b.quantity(),
                b.end(),
                shortest,
                now));
        return tracked.doneWith(due);
    }

    private NoShow noShow(
            TrackedBooking tracked, Duration grace, WorkloadPresence workloads, Instant now, List<Notice> notices) {
        Booking b = tracked.booking();
        Instant from = b.start().isAfter(tracked.watchedFrom()) ? b.start() : tracked.watchedFrom();
        Instant releaseAt = from.plus(grace);
        Instant warnAt = from.plus(grace.dividedBy(2));
        if (now.isBefore(warnAt) || !releaseAt.isBefore(b.end())) {
            return new NoShow(tracked, Optional.empty());
        }
        if (workloads.seenSince(b, b.start())) {
            return new NoShow(tracked.seenWorkload(), Optional.empty());
        }
        if (!feedLive(workloads, now)) {
            // Deferred, not passed over: what is due goes out once the feed is fresh again.
            return new NoShow(tracked, Optional.empty());
        }
        String warningId = Notice.noShowWarningId(b.id());
        if (!now.isBefore(releaseAt)) {
            // A warning whose release is already due would say nothing the release does not: passed over.
            return new NoShow(tracked.doneWith(Set.of(warningId, releaseId(b.id()))), Optional.of(release(b, now)));
        }
        if (tracked.done().contains(warningId)) {
            return new NoShow(tracked, Optional.empty());
        }
        notices.add(new NoShowWarning(
                warningId, b.id(), b.tenant(), b.namespace(), b.pool(), b.quantity(), from, releaseAt, grace, now));
        return new NoShow(tracked.doneWith(Set.of(warningId)), Optional.empty());
    }

    /**
     * The release, as a system caller acting for the booking's tenant. Request id and idempotency key are the
     * booking's own: a command written again is a replay at the decider, never a second decision.
     */
    private static ReleaseBooking release(Booking b, Instant now) {
        String id = releaseId(b.id());
        return new ReleaseBooking(
                id,
                id,
                Caller.system(RELEASE_COMPONENT, b.tenant()),
                b.pool(),
                b.id(),
                ReleaseBooking.Reason.NO_SHOW,
                now,
                null);
    }

    private record NoShow(TrackedBooking tracked, Optional<ReleaseBooking> release) {}
}
