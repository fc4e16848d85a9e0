package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingState;
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
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The feed guard of the no-show rule: no warning and no release while quota-projector's watermark on the Workload
 * feed is missing or older than the bound (Workloads created meanwhile would be missing), and what was due goes out
 * once it is fresh again.
 */
class LifecycleFeedGuardTest {

    private static final Instant T = Instant.parse("2030-01-01T09:00:00Z");
    private static final Duration STALE_AFTER = Duration.ofMinutes(2);
    private static final PoolCatalog POOLS = new PoolCatalog(
            List.of(new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, Duration.ofMinutes(15))));

    private final LifecycleRules rules =
            new LifecycleRules(List.of(Duration.ofMinutes(5)), POOLS, Duration.ofMinutes(15), STALE_AFTER);
    private final List<Notice> notices = new ArrayList<>();
    private final List<ReleaseBooking> releases = new ArrayList<>();

    /** No Workload of the tenant, and the watermark the feed has at each instant. */
    private static WorkloadPresence unusedWith(Function<Instant, Optional<Instant>> watermarkAt, Instant now) {
        return new WorkloadPresence() {
            @Override
            public boolean seenSince(Booking booking, Instant since) {
                return false;
            }

            @Override
            public Optional<Instant> feedWatermark() {
                return watermarkAt.apply(now);
            }
        };
    }

    /** A watermark that follows the clock at {@code lag} behind. */
    private static Function<Instant, Optional<Instant>> lagging(Duration lag) {
        return now -> Optional.of(now.minus(lag));
    }

    private TrackedBooking run(
            TrackedBooking tracked, Function<Instant, Optional<Instant>> watermarkAt, Duration... sinceStart) {
        TrackedBooking current = tracked;
        for (Duration offset : sinceStart) {
            Instant now = T.plus(offset);
            LifecycleStep step = rules.step(current, unusedWith(watermarkAt, now), now);
            notices.addAll(step.notices());
            step.release().ifPresent(releases::add);
            current = step.tracked();
        }
        return current;
    }

    private TrackedBooking tracked() {
        Booking booking = new Booking(
                "bk-1",
                "team-a",
                "team-a",
                "h200",
                "h200",
                "nvidia.com/gpu",
                1,
                T,
                T.plus(Duration.ofHours(2)),
                null,
                BookingState.ACTIVE,
                "alice",
                T,
                T,
                2);
        return rules.track(null, booking, T).orElseThrow();
    }

    private static Duration m(double minutes) {
        return Duration.ofMillis((long) (minutes * 60_000));
    }

    @Test
    void shouldNeitherWarnNorReleaseWhenNoWatermarkWasEverRead() {
        run(tracked(), now -> Optional.empty(), m(7.5), m(15), m(30), m(90));

        assertThat(notices).isEmpty();
        assertThat(releases).isEmpty();
    }

    @Test
    void shouldNeitherWarnNorReleaseWhileTheWatermarkIsOlderThanTheBound() {
        run(tracked(), lagging(STALE_AFTER.plusSeconds(1)), m(7.5), m(15), m(30));

        assertThat(notices).isEmpty();
        assertThat(releases).isEmpty();
    }

    @Test
    void shouldWarnAndReleaseAtTheirTimesWhenTheWatermarkIsWithinTheBound() {
        run(tracked(), lagging(STALE_AFTER), m(7.5), m(15));

        assertThat(notices).singleElement().isInstanceOf(NoShowWarning.class);
        assertThat(releases).singleElement().satisfies(r -> assertThat(r.requestedAt())
                .isEqualTo(T.plus(m(15))));
    }

    @Test
    void shouldReleaseOnceTheFeedIsFreshAgainWhenTheReleaseFellDueWhileItWasStale() {
        Instant recovered = T.plus(m(40));
        TrackedBooking deferred =
                run(tracked(), now -> Optional.of(now.isBefore(recovered) ? T : now), m(7.5), m(15), m(39.9));

        assertThat(releases).isEmpty();
        run(deferred, now -> Optional.of(now.isBefore(recovered) ? T : now), m(40), m(41));

        // The warning's release is already due once the feed is back: the release alone, once.
        assertThat(notices).noneMatch(NoShowWarning.class::isInstance);
        assertThat(releases).singleElement().satisfies(r -> assertThat(r.requestedAt())
                .isEqualTo(recovered));
    }

    @Test
    void shouldSendEndingSoonNoticesWhateverTheFeedSays() {
        run(tracked(), now -> Optional.empty(), m(115));

        assertThat(notices).singleElement().isInstanceOf(BookingEndingSoon.class);
    }

    @Test
    void shouldJudgeWithoutTheFeedWhenTheBoundIsZero() {
        LifecycleRules unguarded =
                new LifecycleRules(List.of(Duration.ofMinutes(5)), POOLS, Duration.ofMinutes(15), Duration.ZERO);

        assertThat(unguarded.feedLive(unusedWith(now -> Optional.empty(), T), T))
                .isTrue();
        assertThat(rules.feedLive(unusedWith(now -> Optional.empty(), T), T)).isFalse();
    }

    @Test
    void shouldRefuseANegativeBound() {
        assertThatThrownBy(() -> new LifecycleRules(List.of(), POOLS, Duration.ZERO, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
