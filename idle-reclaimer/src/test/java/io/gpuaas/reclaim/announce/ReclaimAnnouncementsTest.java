package io.gpuaas.reclaim.announce;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.notice.Notice;
import io.gpuaas.events.reclaim.WorkloadRef;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReclaimAnnouncementsTest {

    private static final WorkloadRef RAY = new WorkloadRef("team-a", "RayCluster", "train");
    private static final Instant T0 = Instant.parse("2026-11-22T09:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(15);

    private final ReclaimAnnouncements announcements = new ReclaimAnnouncements();

    private static Notice.ReclaimPending notice(Instant since) {
        return new Notice.ReclaimPending(
                Notice.reclaimPendingId(RAY, since),
                "team-a",
                RAY.namespace(),
                RAY,
                RAY.key() + "@" + since,
                since,
                since.plus(WINDOW),
                WINDOW,
                since.plus(Duration.ofMinutes(12)));
    }

    @Test
    void shouldShowTheNoticeUntilItsWindowIsWithdrawnWhenTheWorkloadTurnsBusy() {
        announcements.announced(notice(T0));
        assertThat(announcements.current(RAY)).contains(notice(T0));
        assertThat(announcements.announcedWorkloads()).containsExactly(RAY);

        announcements.withdrawn(RAY, RAY.key() + "@" + T0);

        assertThat(announcements.current(RAY)).isEmpty();
        assertThat(announcements.announcedWorkloads()).isEmpty();
    }

    @Test
    void shouldNotShowAWithdrawnNoticeWhenTheWithdrawalIsReadBeforeIt() {
        announcements.withdrawn(RAY, RAY.key() + "@" + T0.plusSeconds(30));
        announcements.announced(notice(T0));

        assertThat(announcements.current(RAY))
                .as("the reclaim's window began after the notice's")
                .isEmpty();
    }

    @Test
    void shouldShowTheNextWindowsNoticeWhenAnOlderWithdrawalOrNoticeIsReadAfterIt() {
        Instant next = T0.plus(Duration.ofHours(1));
        announcements.announced(notice(next));
        announcements.announced(notice(T0));
        announcements.withdrawn(RAY, RAY.key() + "@" + T0);
        announcements.withdrawn(RAY, "not a window id");

        assertThat(announcements.current(RAY)).contains(notice(next));
    }
}
