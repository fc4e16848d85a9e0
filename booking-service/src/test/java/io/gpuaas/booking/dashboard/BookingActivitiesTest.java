package io.gpuaas.booking.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.booking.dashboard.BookingActivity.WorkloadStatus;
import io.gpuaas.events.booking.Booking;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.notice.Notice.BookingEndingSoon;
import io.gpuaas.events.notice.Notice.MigLayoutNotReady;
import io.gpuaas.events.notice.Notice.NoShowWarning;
import io.gpuaas.events.notice.Notice.ReclaimPending;
import io.gpuaas.events.reclaim.ReclaimEvent.IdleDetected;
import io.gpuaas.events.reclaim.ReclaimEvent.Reclaimed;
import io.gpuaas.events.reclaim.ReclaimEvent.Resumed;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BookingActivitiesTest {

    private static final Instant START = Instant.parse("2026-11-25T10:00:00Z");
    private static final Instant NOW = START.plus(Duration.ofMinutes(40));
    private static final WorkloadRef RAY = new WorkloadRef("team-a", "RayCluster", "ray-1");

    private final WorkloadActivity activity = new WorkloadActivity();
    private final BookingActivities activities =
            new BookingActivities(new WorkloadPresenceReader(Optional::empty), activity, Duration.ofMinutes(15));

    @Test
    void shouldOfferResumeWhenAWorkloadOfTheNamespaceWasReclaimedInTheWindow() {
        activity.applyReclaim(RAY.key(), reclaimed(RAY, NOW.minusSeconds(60), false));

        assertThat(activities.of(booking(BookingState.ACTIVE), NOW).workloads())
                .singleElement()
                .satisfies(w -> {
                    assertThat(w.state()).isEqualTo("RECLAIMED");
                    assertThat(w.reason()).contains("idle for 30 min");
                    assertThat(w.resumable()).isTrue();
                });
    }

    @Test
    void shouldNotOfferResumeWhenTheReclaimWasADryRunOrIsResumedAlready() {
        WorkloadRef dry = new WorkloadRef("team-a", "InferenceService", "dry");
        activity.applyReclaim(dry.key(), reclaimed(dry, NOW.minusSeconds(90), true));
        activity.applyReclaim(RAY.key(), reclaimed(RAY, NOW.minusSeconds(60), false));
        activity.applyReclaim(RAY.key(), new Resumed(RAY, "team-a", List.of(), "alice", NOW.minusSeconds(30)));

        assertThat(activities.of(booking(BookingState.ACTIVE), NOW).workloads())
                .extracting(WorkloadStatus::name, WorkloadStatus::state, WorkloadStatus::resumable)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("dry", "RECLAIMED", false),
                        org.assertj.core.groups.Tuple.tuple("ray-1", "RESUMED", false));
    }

    @Test
    void shouldLeaveOutReclaimsOfOtherNamespacesAndOutsideTheWindow() {
        WorkloadRef other = new WorkloadRef("team-b", "RayCluster", "ray-b");
        activity.applyReclaim(other.key(), reclaimed(other, NOW, false));
        activity.applyReclaim(RAY.key(), reclaimed(RAY, START.minusSeconds(1), false));

        assertThat(activities.of(booking(BookingState.ACTIVE), NOW).workloads()).isEmpty();
    }

    @Test
    void shouldShowReclaimPendingWhenTheNoticeIsNewerThanTheLastReclaimStep() {
        activity.applyReclaim(
                RAY.key(),
                new IdleDetected(
                        RAY,
                        "team-a",
                        1,
                        NOW.minusSeconds(1500),
                        1800,
                        0.05,
                        0.0,
                        1.0,
                        "direct",
                        NOW.minusSeconds(1500)));
        Instant idleSince = NOW.minusSeconds(1440);
        activity.applyNotice(
                RAY.key(),
                new ReclaimPending(
                        Notice.reclaimPendingId(RAY, idleSince),
                        "team-a",
                        "team-a",
                        RAY,
                        "w",
                        idleSince,
                        idleSince.plusSeconds(1800),
                        Duration.ofMinutes(30),
                        NOW.minusSeconds(10)));

        assertThat(activities.of(booking(BookingState.ACTIVE), NOW).workloads())
                .singleElement()
                .satisfies(w -> {
                    assertThat(w.state()).isEqualTo("IDLE");
                    assertThat(w.reclaimAt()).isEqualTo(idleSince.plusSeconds(1800));
                });
    }

    @Test
    void shouldShowTheNoticesThatStillApplyWhenTheBookingIsActive() {
        Booking booking = booking(BookingState.ACTIVE);
        activity.applyNotice(
                booking.id(),
                new BookingEndingSoon(
                        "n1",
                        booking.id(),
                        "team-a",
                        "team-a",
                        "h200",
                        1,
                        booking.end().minusSeconds(3600),
                        Duration.ofMinutes(15),
                        NOW));
        activity.applyNotice(
                booking.id(),
                new NoShowWarning(
                        "n2",
                        booking.id(),
                        "team-a",
                        "team-a",
                        "h200",
                        1,
                        START,
                        START.plusSeconds(900),
                        Duration.ofMinutes(15),
                        NOW));

        BookingActivity shown = activities.of(booking, NOW);
        // The ending-soon was for an end the booking no longer has (it was extended).
        assertThat(shown.notices())
                .extracting(BookingActivity.BookingNotice::type)
                .containsExactly("NO_SHOW_WARNING");
        assertThat(shown.endingSoonFrom()).isEqualTo(booking.end().minus(Duration.ofMinutes(15)));
        assertThat(activities.of(booking(BookingState.RELEASED), NOW).notices()).isEmpty();
    }

    @Test
    void shouldShowMigLayoutNotReadyWhenTheBookingIsUpcomingOrActive() {
        Booking upcoming = booking(BookingState.CONFIRMED);
        activity.applyNotice(upcoming.id(), layoutNotReady(upcoming.id(), START, "pending", "the MIG manager is busy"));

        BookingActivity shown = activities.of(upcoming, START.minus(Duration.ofMinutes(5)));

        assertThat(shown.notices()).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo("MIG_LAYOUT_NOT_READY");
            assertThat(n.node()).isEqualTo("flex-a");
            assertThat(n.state()).isEqualTo("pending");
            assertThat(n.reason()).isEqualTo("the MIG manager is busy");
            assertThat(n.at()).isEqualTo(START);
        });
        assertThat(activities.of(booking(BookingState.ACTIVE), NOW).notices())
                .extracting(BookingActivity.BookingNotice::type)
                .containsExactly("MIG_LAYOUT_NOT_READY");
        assertThat(activities.of(booking(BookingState.CANCELLED), NOW).notices())
                .isEmpty();
    }

    @Test
    void shouldDropMigLayoutNotReadyWhenTheBookingWasMovedToAnotherStart() {
        activity.applyNotice(
                "b-1", layoutNotReady("b-1", START.minus(Duration.ofHours(1)), "failed", "the MIG manager failed"));

        assertThat(activities.of(booking(BookingState.CONFIRMED), NOW).notices())
                .isEmpty();
        assertThat(activities.of(booking("b-2", BookingState.CONFIRMED), NOW).notices())
                .as("another booking's notice")
                .isEmpty();
    }

    @Test
    void shouldLeaveOutOtherBookingsWhenTheLayoutIsBlockedByOne() {
        String own = "0b7c2a51-9d3e-4f1a-8c2b-5e6f7a8b9c0d";
        String theirs = "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9";
        String reason = "active booking " + theirs + " holds GPU 0 of flex-a until 2026-11-25T12:00:00Z";

        assertThat(BookingActivities.withoutOtherBookings(reason, own))
                .isEqualTo("active booking … holds GPU 0 of flex-a until 2026-11-25T12:00:00Z");
        assertThat(BookingActivities.withoutOtherBookings("active booking " + own + " holds GPU 0", own))
                .isEqualTo("active booking " + own + " holds GPU 0");
    }

    @Test
    void shouldSayTheWorkloadsAreUnknownWhenTheStoreCannotBeRead() {
        assertThat(activities.of(booking(BookingState.ACTIVE), NOW).workloadsKnown())
                .isFalse();
        assertThat(activities.of(booking(BookingState.COMPLETED), NOW).workloadsKnown())
                .isTrue();
    }

    private static Reclaimed reclaimed(WorkloadRef ref, Instant time, boolean dryRun) {
        return new Reclaimed(ref, "team-a", List.of(), 2, 1800, "RayCluster worker groups to 0", dryRun, time);
    }

    private static MigLayoutNotReady layoutNotReady(String bookingId, Instant startsAt, String state, String reason) {
        return new MigLayoutNotReady(
                Notice.migLayoutNotReadyId(bookingId, startsAt),
                bookingId,
                "team-a",
                "team-a",
                "h200-flex",
                "flex-a",
                state,
                reason,
                startsAt,
                startsAt.minus(Duration.ofMinutes(10)));
    }

    private static Booking booking(BookingState state) {
        return booking("b-1", state);
    }

    private static Booking booking(String id, BookingState state) {
        return new Booking(
                id,
                "team-a",
                "team-a",
                "h200",
                "h200",
                "nvidia.com/gpu",
                1,
                START,
                START.plus(Duration.ofHours(2)),
                null,
                state,
                "alice",
                START,
                START,
                1);
    }
}
