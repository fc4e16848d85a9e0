package io.gpuaas.quota.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BookingNoticesTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final Instant END = NOW.plus(Duration.ofMinutes(15));

    @Test
    void shouldShowEndingSoonOnWorkloadsWithTheEndWhenTheNoticeIsABookingEndingSoon() {
        BookingNotice shown =
                BookingNotice.of(endingSoon(Duration.ofMinutes(15), NOW)).orElseThrow();

        assertThat(shown.reason()).isEqualTo("BookingEndingSoon");
        assertThat(shown.annotation()).isEqualTo("gpuaas.io/booking-ends-at");
        assertThat(shown.at()).isEqualTo(END);
        assertThat(shown.onWorkloads()).isTrue();
        assertThat(shown.onClusterQueue()).isFalse();
        assertThat(shown.message()).contains("b-1", "h200", END.toString(), "PT15M");
    }

    @Test
    void shouldShowANoShowWarningOnTheQueuesWithTheReleaseTimeWhenNoWorkloadCanCarryIt() {
        Instant releaseAt = NOW.plus(Duration.ofMinutes(7));
        Notice.NoShowWarning warning = new Notice.NoShowWarning(
                Notice.noShowWarningId("b-2"),
                "b-2",
                "team-a",
                "team-a",
                "h200",
                2,
                NOW.minus(Duration.ofMinutes(7)),
                releaseAt,
                Duration.ofMinutes(14),
                NOW);

        BookingNotice shown = BookingNotice.of(warning).orElseThrow();

        assertThat(shown.annotation()).isEqualTo("gpuaas.io/no-show-release-at");
        assertThat(shown.at()).isEqualTo(releaseAt);
        assertThat(shown.onWorkloads()).isFalse();
        assertThat(shown.onClusterQueue()).isTrue();
    }

    @Test
    void shouldLeaveReclaimPendingToTheReclaimerWhenAWorkloadNoticeIsRead() {
        WorkloadRef ref = new WorkloadRef("team-a", "RayCluster", "rc");
        Notice.ReclaimPending pending = new Notice.ReclaimPending(
                Notice.reclaimPendingId(ref, NOW), "team-a", "team-a", ref, "w", NOW, END, Duration.ofMinutes(15), NOW);

        assertThat(BookingNotice.of(pending)).isEmpty();
    }

    @Test
    void shouldKeepOnlyNoticesStillAheadAndListTheLaterDecisionLastWhenNoticesAreRead() {
        BookingNotices notices = new BookingNotices();
        BookingNotice five = BookingNotice.of(endingSoon(Duration.ofMinutes(5), NOW.plusSeconds(600)))
                .orElseThrow();
        BookingNotice fifteen =
                BookingNotice.of(endingSoon(Duration.ofMinutes(15), NOW)).orElseThrow();

        assertThat(notices.add(five, NOW)).isTrue();
        assertThat(notices.add(fifteen, NOW)).isTrue();
        assertThat(notices.add(fifteen, END)).as("read again after its end").isFalse();

        assertThat(notices.of("b-1")).containsExactly(fifteen, five);
        notices.forget(fifteen);
        assertThat(notices.of("b-1")).containsExactly(five);
        notices.dropOver(END);
        assertThat(notices.bookings()).isEmpty();
    }

    private static Notice.BookingEndingSoon endingSoon(Duration lead, Instant decided) {
        return new Notice.BookingEndingSoon(
                Notice.endingSoonId("b-1", lead, END), "b-1", "team-a", "team-a", "h200", 1, END, lead, decided);
    }
}
