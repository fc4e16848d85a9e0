package io.gpuaas.booking.model;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** The lifecycle's pure rules, on an injected clock: ending-soon leads, the no-show warning and release. */
class LifecycleRulesTest {

    private static final Instant T = Instant.parse("2030-01-01T09:00:00Z");
    private static final WorkloadPresence NONE = (booking, since) -> false;
    private static final WorkloadPresence SOME = (booking, since) -> true;
    private static final PoolCatalog POOLS = new PoolCatalog(List.of(
            new Pool("h200", "h200", "nvidia.com/gpu", 8, "NVIDIA H200", null, Duration.ofMinutes(15)),
            new Pool("mig", "h200-mig-2g.35gb", "nvidia.com/mig-2g.35gb", 9, "NVIDIA H200", "2g.35gb", null),
            new Pool("off", "h200-off", "nvidia.com/gpu", 8, "NVIDIA H200", null, Duration.ZERO)));

    private final LifecycleRules rules =
            new LifecycleRules(List.of(Duration.ofMinutes(5), Duration.ofMinutes(15)), POOLS, Duration.ofMinutes(20));

    private final List<Notice> notices = new ArrayList<>();

    private final List<ReleaseBooking> releases = new ArrayList<>();

    private static Booking active(String pool, Instant start, Instant end) {
        return new Booking(
                "bk-1",
                "team-a",
                "team-a",
                pool,
                "f",
                "r",
                2,
                start,
                end,
                null,
                BookingState.ACTIVE,
                "alice",
                start,
                start,
                2);
    }

    /** Looks at {@code tracked} at each instant in turn, as the punctuation would, collecting what it wrote. */
    private TrackedBooking run(TrackedBooking tracked, WorkloadPresence workloads, Instant... instants) {
        TrackedBooking current = tracked;
        for (Instant now : instants) {
            LifecycleStep step = rules.step(current, workloads, now);
            notices.addAll(step.notices());
            step.release().ifPresent(releases::add);
            current = step.tracked();
        }
        return current;
    }

    private TrackedBooking tracked(Booking booking) {
        return rules.track(null, booking, booking.start()).orElseThrow();
    }

    private static Instant at(Duration sinceT) {
        return T.plus(sinceT);
    }

    private static Duration m(double minutes) {
        return Duration.ofMillis((long) (minutes * 60_000));
    }

    @Test
    void shouldSendEachLeadOnceAtItsTimeWhenTheBookingRunsToItsEnd() {
        TrackedBooking t = tracked(active("off", T, at(m(60))));

        run(t, NONE, at(m(44.9)), at(m(45)), at(m(45.1)), at(m(54.9)), at(m(55)), at(m(59.9)), at(m(60)));

        assertThat(notices).hasSize(2).allMatch(BookingEndingSoon.class::isInstance);
        BookingEndingSoon first = (BookingEndingSoon) notices.get(0);
        assertThat(first.lead()).isEqualTo(Duration.ofMinutes(15));
        assertThat(first.time()).isEqualTo(at(m(45)));
        assertThat(first.endsAt()).isEqualTo(at(m(60)));
        assertThat(first.noticeId()).isEqualTo("bk-1/booking-ending-soon/PT15M@2030-01-01T10:00:00Z");
        assertThat(((BookingEndingSoon) notices.get(1)).lead()).isEqualTo(Duration.ofMinutes(5));
        assertThat(notices.get(1).time()).isEqualTo(at(m(55)));
    }

    @Test
    void shouldSendOnlyTheFiveMinuteNoticeWhenATenMinuteBookingBegins() {
        TrackedBooking t = tracked(active("off", T, at(m(10))));

        run(t, NONE, at(m(0)), at(m(1)), at(m(5)), at(m(6)), at(m(9.9)));

        assertThat(notices).singleElement().satisfies(n -> {
            assertThat(((BookingEndingSoon) n).lead()).isEqualTo(Duration.ofMinutes(5));
            assertThat(n.time()).isEqualTo(at(m(5)));
        });
    }

    @Test
    void shouldNotSayFifteenMinutesAreLeftWhenAFifteenMinuteBookingBegins() {
        TrackedBooking t = tracked(active("off", T, at(m(15))));

        run(t, NONE, at(m(0)), at(m(0.1)), at(m(10)), at(m(14)));

        assertThat(notices).singleElement().satisfies(n -> assertThat(((BookingEndingSoon) n).lead())
                .isEqualTo(Duration.ofMinutes(5)));
    }

    @Test
    void shouldSendOnlyTheShortestLeadWhenSeveralFellDueWhileNobodyLooked() {
        TrackedBooking t = tracked(active("off", T, at(m(60))));

        TrackedBooking after = run(t, NONE, at(m(56)), at(m(57)));

        assertThat(notices).singleElement().satisfies(n -> assertThat(((BookingEndingSoon) n).lead())
                .isEqualTo(Duration.ofMinutes(5)));
        assertThat(after.done())
                .as("the 15-minute lead is passed over, not kept for later")
                .hasSize(2);
    }

    @Test
    void shouldWarnAgainBeforeTheNewEndWhenTheBookingIsExtendedWhileActive() {
        Booking booking = active("off", T, at(m(60)));
        TrackedBooking t = run(tracked(booking), NONE, at(m(45)));
        Booking extended = booking.withWindow(T, at(m(120)), at(m(50)));

        TrackedBooking moved = rules.track(t, extended, at(m(50))).orElseThrow();
        run(moved, NONE, at(m(55)), at(m(104.9)), at(m(105)), at(m(115)));

        assertThat(notices)
                .extracting(n -> ((BookingEndingSoon) n).endsAt())
                .containsExactly(at(m(60)), at(m(120)), at(m(120)));
        assertThat(notices).extracting(Notice::time).containsExactly(at(m(45)), at(m(105)), at(m(115)));
    }

    @Test
    void shouldSkipTheLeadsOfTheNewEndThatHadPassedWhenTheBookingIsShortened() {
        Booking booking = active("off", T, at(m(60)));
        Booking shortened = booking.withWindow(T, at(m(20)), at(m(8)));

        TrackedBooking moved =
                rules.track(tracked(booking), shortened, at(m(8))).orElseThrow();
        run(moved, NONE, at(m(9)), at(m(15)), at(m(19)));

        assertThat(notices).singleElement().satisfies(n -> assertThat(((BookingEndingSoon) n).lead())
                .isEqualTo(Duration.ofMinutes(5)));
    }

    @Test
    void shouldWarnAtHalfTheGraceAndReleaseAtTheGraceWhenNoWorkloadCame() {
        TrackedBooking t = tracked(active("h200", T, at(m(120))));

        TrackedBooking after =
                run(t, NONE, at(m(7.49)), at(m(7.5)), at(m(8)), at(m(14.99)), at(m(15)), at(m(15.1)), at(m(16)));

        assertThat(notices).singleElement().isInstanceOfSatisfying(NoShowWarning.class, w -> {
            assertThat(w.noticeId()).isEqualTo("bk-1/no-show-warning");
            assertThat(w.time()).isEqualTo(at(m(7.5)));
            assertThat(w.activeSince()).isEqualTo(T);
            assertThat(w.releaseAt()).isEqualTo(at(m(15)));
            assertThat(w.grace()).isEqualTo(Duration.ofMinutes(15));
            assertThat(w.tenant()).isEqualTo("team-a");
        });
        assertThat(releases).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(ReleaseBooking.Reason.NO_SHOW);
            assertThat(r.caller().system()).isTrue();
            assertThat(r.caller().tenant()).isEqualTo("team-a");
            assertThat(r.pool()).isEqualTo("h200");
            assertThat(r.bookingId()).isEqualTo("bk-1");
            assertThat(r.idempotencyKey()).isEqualTo("no-show:bk-1");
            assertThat(r.requestedAt()).isEqualTo(at(m(15)));
        });
        assertThat(after.done()).contains(LifecycleRules.releaseId("bk-1"));
    }

    @Test
    void shouldNeverWarnOrReleaseWhenThePoolsGraceIsZero() {
        TrackedBooking t = tracked(active("off", T, at(m(240))));

        run(t, NONE, at(m(10)), at(m(20)), at(m(60)), at(m(200)));

        assertThat(notices).isEmpty();
        assertThat(releases).isEmpty();
    }

    @Test
    void shouldUseTheDefaultGraceWhenThePoolNamesNone() {
        TrackedBooking t = tracked(active("mig", T, at(m(240))));

        run(t, NONE, at(m(9.9)), at(m(10)), at(m(19.9)), at(m(20)));

        assertThat(notices).singleElement().satisfies(n -> assertThat(n.time()).isEqualTo(at(m(10))));
        assertThat(releases).singleElement().satisfies(r -> assertThat(r.requestedAt())
                .isEqualTo(at(m(20))));
    }

    @Test
    void shouldNeverReleaseWhileOrOnceAWorkloadOfTheTenantWasSeen() {
        TrackedBooking t = tracked(active("h200", T, at(m(120))));

        TrackedBooking seen = run(t, SOME, at(m(7.5)), at(m(15)));
        run(seen, NONE, at(m(16)), at(m(30)), at(m(60)));

        assertThat(seen.workloadSeen()).isTrue();
        assertThat(notices).isEmpty();
        assertThat(releases).isEmpty();
    }

    @Test
    void shouldStillReleaseWhenTheWorkloadCameOnlyAfterTheRelease() {
        TrackedBooking t = tracked(active("h200", T, at(m(120))));

        TrackedBooking released = run(t, NONE, at(m(15)));
        run(released, SOME, at(m(16)), at(m(17)));

        assertThat(releases).hasSize(1);
        assertThat(released.workloadSeen()).isFalse();
    }

    @Test
    void shouldAskForWorkloadsSinceTheStartWhenTheGraceIsCountedFromLater() {
        List<Instant> asked = new ArrayList<>();
        Booking booking = active("h200", T, at(m(240)));
        TrackedBooking late = rules.track(null, booking, at(m(30))).orElseThrow();

        WorkloadPresence recording = (b, since) -> {
            asked.add(since);
            return false;
        };
        run(late, recording, at(m(37.49)), at(m(37.5)), at(m(44.99)), at(m(45)));

        assertThat(asked).isNotEmpty().containsOnly(T);
        assertThat(notices).singleElement().isInstanceOfSatisfying(NoShowWarning.class, w -> {
            assertThat(w.activeSince()).isEqualTo(at(m(30)));
            assertThat(w.time()).isEqualTo(at(m(37.5)));
        });
        assertThat(releases).singleElement().satisfies(r -> assertThat(r.requestedAt())
                .isEqualTo(at(m(45))));
    }

    @Test
    void shouldNeitherWarnNorReleaseWhenTheReleaseWouldFallAtTheEnd() {
        TrackedBooking t = tracked(active("h200", T, at(m(15))));

        run(t, NONE, at(m(7.5)), at(m(10)), at(m(14.9)));

        assertThat(notices).noneMatch(NoShowWarning.class::isInstance);
        assertThat(releases).isEmpty();
    }

    @Test
    void shouldReleaseWithoutAWarningWhenBothFellDueWhileNobodyLooked() {
        TrackedBooking t = tracked(active("h200", T, at(m(120))));

        run(t, NONE, at(m(16)), at(m(17)));

        assertThat(notices).isEmpty();
        assertThat(releases).singleElement().satisfies(r -> assertThat(r.requestedAt())
                .isEqualTo(at(m(16))));
    }

    @Test
    void shouldStopTrackingWhenTheBookingIsNoLongerActiveAndIgnoreAnOlderVersion() {
        Booking booking = active("h200", T, at(m(60)));
        TrackedBooking t = tracked(booking);
        Booking older = new Booking(
                "bk-1",
                "team-a",
                "team-a",
                "h200",
                "f",
                "r",
                2,
                T,
                at(m(30)),
                null,
                BookingState.ACTIVE,
                "alice",
                T,
                T,
                1);

        assertThat(rules.track(t, older, at(m(1)))).contains(t);
        assertThat(rules.track(t, booking.withState(BookingState.RELEASED, at(m(2))), at(m(2))))
                .isEmpty();
        assertThat(rules.track(t, null, at(m(2)))).isEmpty();
        assertThat(rules.track(null, booking.withState(BookingState.COMPLETED, at(m(60))), at(m(60))))
                .isEmpty();
    }
}
