package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.KeepRequested;
import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.ReclaimIntent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.config.KeepSettings;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.AttributedSample;
import io.gpuaas.reclaim.model.DeviceVerdict;
import io.gpuaas.reclaim.model.IdlePolicy;
import io.gpuaas.reclaim.model.WorkloadInfo;
import io.gpuaas.reclaim.model.WorkloadVerdict;
import io.gpuaas.reclaim.model.WorkloadWindows;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReclaimDeciderTest {

    private static final WorkloadRef REF = new WorkloadRef("team-a", "InferenceService", "chat");
    private static final WorkloadVerdict IDLE =
            new WorkloadVerdict(true, 2, 1.0, 0.01, 1_000, 60_000, DeviceVerdict.Reason.IDLE);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final String WINDOW = "team-a/InferenceService/chat@1970-01-01T00:00:01Z";

    private final ReclaimerMetrics metrics = new ReclaimerMetrics(new PrometheusRegistry());

    private ReclaimDecider decider(Mode mode, boolean dryRun) {
        return new ReclaimDecider(mode, dryRun, metrics, CLOCK);
    }

    private static WorkloadInfo info(boolean enabled) {
        return new WorkloadInfo(REF, "team-a", IdlePolicy.defaults().withReclaimEnabled(enabled), 0);
    }

    private static WorkloadWindows state() {
        WorkloadWindows state = new WorkloadWindows();
        state.accept(new AttributedSample(REF, "n/GPU-1", "chat-0", "predictor", 0, 0.0, 0), IdlePolicy.defaults());
        return state;
    }

    private static List<ReclaimIntent> intents(List<Decision> decisions) {
        return decisions.stream()
                .<ReclaimIntent>mapMulti((d, out) -> {
                    if (d instanceof Decision.Intent intent) {
                        out.accept(intent.intent());
                    }
                })
                .toList();
    }

    private static List<ReclaimEvent> events(List<Decision> decisions) {
        return decisions.stream()
                .<ReclaimEvent>mapMulti((d, out) -> {
                    if (d instanceof Decision.Report report) {
                        out.accept(report.event());
                    }
                })
                .toList();
    }

    @Test
    void shouldRequestAReclaimUnderTheWindowsIdWithoutWaitingForTheOutcome() {
        WorkloadWindows state = state();

        List<Decision> decisions = decider(Mode.DIRECT, false).decide(REF, info(true), state, IDLE, 5_000);

        assertThat(events(decisions)).singleElement().isInstanceOf(ReclaimEvent.IdleDetected.class);
        assertThat(intents(decisions))
                .singleElement()
                .isEqualTo(new ReclaimIntent.ReclaimRequested(
                        REF,
                        WINDOW,
                        "team-a",
                        List.of("predictor"),
                        2,
                        60,
                        false,
                        Instant.ofEpochMilli(5_000),
                        CLOCK.instant()));
        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.RECLAIMED);
        assertThat(state.actionId()).isEqualTo(WINDOW);
        assertThat(state.awaitingDecision(Long.MAX_VALUE - 1))
                .as("one request per idle episode")
                .isFalse();
    }

    @Test
    void shouldRequestTheSameWindowIdWhenTheSameSamplesAreDecidedAgain() {
        List<Decision> first = decider(Mode.DIRECT, false).decide(REF, info(true), state(), IDLE, 5_000);
        List<Decision> replay = decider(Mode.DIRECT, false).decide(REF, info(true), state(), IDLE, 5_000);

        assertThat(intents(replay))
                .extracting(ReclaimIntent::windowId)
                .isEqualTo(intents(first).stream().map(ReclaimIntent::windowId).toList())
                .containsExactly(WINDOW);
    }

    @Test
    void shouldOnlyReportInKedaModeAndWhenOptedOut() {
        WorkloadWindows keda = state();
        assertThat(decider(Mode.KEDA, false).decide(REF, info(true), keda, IDLE, 5_000))
                .singleElement()
                .isInstanceOfSatisfying(Decision.Report.class, r -> assertThat(r.event())
                        .isInstanceOf(ReclaimEvent.IdleDetected.class));

        WorkloadWindows optedOut = state();
        List<Decision> decisions = decider(Mode.DIRECT, false).decide(REF, info(false), optedOut, IDLE, 5_000);

        assertThat(intents(decisions)).isEmpty();
        assertThat(events(decisions)).last().isInstanceOfSatisfying(ReclaimEvent.ReclaimSkipped.class, s -> assertThat(
                        s.reason())
                .isEqualTo("OPTED_OUT"));
        assertThat(optedOut.awaitingDecision(Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void shouldRequestADryRunWithoutEnteringTheReclaimedPhase() {
        WorkloadWindows state = state();

        List<Decision> decisions = decider(Mode.DIRECT, true).decide(REF, info(true), state, IDLE, 5_000);

        assertThat(intents(decisions))
                .singleElement()
                .isInstanceOfSatisfying(ReclaimIntent.ReclaimRequested.class, r -> assertThat(r.dryRun())
                        .isTrue());
        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.REPORTED);
    }

    @Test
    void shouldNotReportIdlenessTwiceWhenARequestedWorkloadIsDecidedAgain() {
        WorkloadWindows state = state();
        state.markReported(0, 1_000);

        List<Decision> decisions = decider(Mode.DIRECT, false).decide(REF, info(true), state, IDLE, 5_000);

        assertThat(events(decisions)).isEmpty();
        assertThat(intents(decisions)).hasSize(1);
    }

    @Test
    void shouldWithdrawTheRequestedWindowWhenAsked() {
        assertThat(decider(Mode.DIRECT, false).withdraw(REF, WINDOW))
                .isEqualTo(new Decision.Intent(new ReclaimIntent.ReclaimWithdrawn(REF, WINDOW, CLOCK.instant())));
    }

    @Test
    void shouldAnnounceOnlyAReclaimThatWillBeWrittenWhenAWindowIsEightyPercentIdle() {
        WorkloadWindows state = state();

        assertThat(decider(Mode.DIRECT, true).pending(REF, info(true), state, 1_000, 721_000, false))
                .as("dry-run")
                .isEmpty();
        assertThat(decider(Mode.KEDA, false).pending(REF, info(true), state, 1_000, 721_000, false))
                .isEmpty();
        assertThat(decider(Mode.DIRECT, false).pending(REF, info(false), state, 1_000, 721_000, false))
                .as("opted out")
                .isEmpty();
        assertThat(state.noticed()).isFalse();

        Decision pending = decider(Mode.DIRECT, false)
                .pending(REF, info(true), state, 1_000, 721_000, false)
                .orElseThrow();

        assertThat(pending)
                .isEqualTo(new Decision.Notify(new io.gpuaas.events.notice.Notice.ReclaimPending(
                        "team-a/InferenceService/chat/reclaim-pending@1970-01-01T00:00:01Z",
                        "team-a",
                        "team-a",
                        REF,
                        WINDOW,
                        Instant.ofEpochMilli(1_000),
                        Instant.ofEpochMilli(1_000).plus(IdlePolicy.DEFAULT_WINDOW),
                        IdlePolicy.DEFAULT_WINDOW,
                        Instant.ofEpochMilli(721_000),
                        "/api/v1/workloads/team-a/InferenceService/chat/keep")));
        assertThat(state.noticed()).isTrue();
    }

    @Test
    void shouldWithdrawTheAnnouncementWhenTheWorkloadOptedOutAfterIt() {
        WorkloadWindows state = state();
        state.markNoticed(1_000);

        List<Decision> decisions = decider(Mode.DIRECT, false).decide(REF, info(false), state, IDLE, 901_000);

        assertThat(intents(decisions))
                .containsExactly(new ReclaimIntent.ReclaimWithdrawn(REF, WINDOW, CLOCK.instant()));
    }

    private static KeepRequested answer(String id, int hours, Instant at) {
        return new KeepRequested(REF, "team-a", id, hours, "alice", at);
    }

    private static ReclaimEvent.ReclaimKept kept(Optional<Decision> decision) {
        return (ReclaimEvent.ReclaimKept) ((Decision.Report) decision.orElseThrow()).event();
    }

    @Test
    void shouldKeepFromTheAnswersTimeAndHoldTheReclaimUntilThenWhenNoKeepRuns() {
        WorkloadWindows state = state();
        Instant at = Instant.parse("2026-11-28T10:00:00Z");

        ReclaimEvent.ReclaimKept kept = kept(decider(Mode.DIRECT, false).keep(REF, state, answer("r1", 4, at)));

        assertThat(kept)
                .isEqualTo(new ReclaimEvent.ReclaimKept(
                        REF, "team-a", "r1", 4, at.plus(Duration.ofHours(4)), 1, 4, 20, "alice", at));
        assertThat(state.keptAt(at.plus(Duration.ofHours(4)).toEpochMilli() - 1))
                .isTrue();
        assertThat(state.keptAt(at.plus(Duration.ofHours(4)).toEpochMilli())).isFalse();
    }

    @Test
    void shouldExtendFromTheRunningKeepsEndAndGrantOnlyWhatIsLeftOfTheDayWhenAnswersPileUp() {
        WorkloadWindows state = state();
        ReclaimDecider decider = new ReclaimDecider(Mode.DIRECT, false, metrics, CLOCK, new KeepSettings(8, 12));
        Instant at = Instant.parse("2026-11-28T10:00:00Z");

        assertThat(kept(decider.keep(REF, state, answer("r1", 20, at))).hours())
                .as("bounded per answer")
                .isEqualTo(8);
        ReclaimEvent.ReclaimKept second = kept(decider.keep(REF, state, answer("r2", 8, at.plusSeconds(60))));
        assertThat(second.hours()).as("what is left of the day").isEqualTo(4);
        assertThat(second.keptUntil()).as("after the running keep").isEqualTo(at.plus(Duration.ofHours(12)));
        assertThat(second.hoursLeft()).isZero();

        assertThat(decider.keep(REF, state, answer("r3", 1, at.plusSeconds(120))))
                .as("nothing left today: nothing granted, nothing published")
                .isEmpty();
        assertThat(state.keepUntilMillis())
                .isEqualTo(at.plus(Duration.ofHours(12)).toEpochMilli());

        Instant tomorrow = Instant.parse("2026-11-29T00:30:00Z");
        ReclaimEvent.ReclaimKept next = kept(decider.keep(REF, state, answer("r4", 2, tomorrow)));
        assertThat(next.hoursToday()).as("a new UTC day has its own bound").isEqualTo(2);
        assertThat(next.keptUntil())
                .as("the last keep ended: from the answer")
                .isEqualTo(tomorrow.plus(Duration.ofHours(2)));
    }

    @Test
    void shouldDecideAKeepTheSameOnReplayWhateverTheClockSays() {
        Instant at = Instant.parse("2026-11-28T10:00:00Z");
        Clock later = Clock.fixed(Instant.parse("2027-05-01T00:00:00Z"), ZoneOffset.UTC);

        ReclaimEvent.ReclaimKept first = kept(decider(Mode.DIRECT, false).keep(REF, state(), answer("r1", 3, at)));
        ReclaimEvent.ReclaimKept replayed =
                kept(new ReclaimDecider(Mode.DIRECT, false, metrics, later, KeepSettings.defaults())
                        .keep(REF, state(), answer("r1", 3, at)));

        assertThat(replayed).isEqualTo(first);
    }
}
