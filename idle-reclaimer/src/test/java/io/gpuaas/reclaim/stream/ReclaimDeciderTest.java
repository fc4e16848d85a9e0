package io.gpuaas.reclaim.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.reclaim.ReclaimEvent;
import io.gpuaas.events.reclaim.WorkloadRef;
import io.gpuaas.reclaim.config.ReclaimerSettings.Mode;
import io.gpuaas.reclaim.k8s.ScaleOutcome;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.ActionRateLimiter;
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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReclaimDeciderTest {

    private static final WorkloadRef REF = new WorkloadRef("team-a", "InferenceService", "chat");
    private static final WorkloadVerdict IDLE = new WorkloadVerdict(true, 2, 1.0, 0.01, 1_000, 60_000,
            DeviceVerdict.Reason.IDLE);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final List<String> actions = new ArrayList<>();
    private final ReclaimerMetrics metrics = new ReclaimerMetrics(new PrometheusRegistry());

    private ReclaimDecider decider(Mode mode, boolean dryRun, int perMinute, ScaleOutcome outcome) {
        return new ReclaimDecider(mode, dryRun, new ActionRateLimiter(perMinute, () -> 0L), (ref, groups, id, dry) -> {
            actions.add(id + (dry ? " dry" : ""));
            return outcome;
        }, metrics, CLOCK, Duration.ofSeconds(30));
    }

    private static WorkloadInfo info(boolean enabled) {
        return new WorkloadInfo(REF, "team-a", IdlePolicy.defaults().withReclaimEnabled(enabled), 0);
    }

    private static WorkloadWindows state() {
        WorkloadWindows state = new WorkloadWindows();
        state.accept(new AttributedSample(REF, "n/GPU-1", "chat-0", "predictor", 0, 0.0, 0), IdlePolicy.defaults());
        return state;
    }

    private static final ScaleOutcome APPLIED = new ScaleOutcome.Applied(
            List.of(new ReclaimEvent.ScaledGroup("predictor", null, 1, 0)), "minReplicas to 0", false);

    @Test
    void shouldReclaimUnderAnActionIdDerivedFromTheWindow() {
        WorkloadWindows state = state();

        List<ReclaimEvent> events = decider(Mode.DIRECT, false, 10, APPLIED).decide(REF, info(true), state, IDLE, 5_000);

        assertThat(events).hasSize(2).first().isInstanceOf(ReclaimEvent.IdleDetected.class);
        ReclaimEvent.Reclaimed reclaimed = (ReclaimEvent.Reclaimed) events.get(1);
        assertThat(reclaimed.gpusFreed()).isEqualTo(2);
        assertThat(reclaimed.idleSeconds()).isEqualTo(60);
        assertThat(actions).containsExactly("team-a/InferenceService/chat@1970-01-01T00:00:01Z");
        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.RECLAIMED);
    }

    @Test
    void shouldOnlyReportInKedaModeAndWhenOptedOut() {
        WorkloadWindows keda = state();
        assertThat(decider(Mode.KEDA, false, 10, APPLIED).decide(REF, info(true), keda, IDLE, 5_000))
                .singleElement().isInstanceOf(ReclaimEvent.IdleDetected.class);

        WorkloadWindows optedOut = state();
        List<ReclaimEvent> events = decider(Mode.DIRECT, false, 10, APPLIED).decide(REF, info(false), optedOut, IDLE,
                5_000);
        assertThat(events).last().isInstanceOfSatisfying(ReclaimEvent.ReclaimSkipped.class,
                s -> assertThat(s.reason()).isEqualTo("OPTED_OUT"));
        assertThat(actions).isEmpty();
        assertThat(optedOut.awaitingDecision(Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void shouldSkipOverTheRateLimitAndRetryLater() {
        ReclaimDecider decider = decider(Mode.DIRECT, false, 1, APPLIED);
        decider.decide(REF, info(true), state(), IDLE, 5_000);
        WorkloadWindows second = state();

        List<ReclaimEvent> events = decider.decide(REF, info(true), second, IDLE, 5_000);

        assertThat(events).last().isInstanceOfSatisfying(ReclaimEvent.ReclaimSkipped.class,
                s -> assertThat(s.reason()).isEqualTo("RATE_LIMITED"));
        assertThat(second.awaitingDecision(34_999)).isFalse();
        assertThat(second.awaitingDecision(35_000)).isTrue();
    }

    @Test
    void shouldReportFailureAndRetryAfterTheBackoff() {
        WorkloadWindows state = state();
        ScaleOutcome failed = new ScaleOutcome.Failed("API_ERROR", "boom");

        List<ReclaimEvent> events = decider(Mode.DIRECT, false, 10, failed).decide(REF, info(true), state, IDLE, 5_000);

        assertThat(events).last().isInstanceOf(ReclaimEvent.ReclaimFailed.class);
        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.REPORTED);
        assertThat(state.awaitingDecision(35_000)).isTrue();
    }

    @Test
    void shouldMarkADryRunWithoutEnteringTheReclaimedPhase() {
        WorkloadWindows state = state();

        List<ReclaimEvent> events = decider(Mode.DIRECT, true, 10, APPLIED).decide(REF, info(true), state, IDLE, 5_000);

        assertThat(((ReclaimEvent.Reclaimed) events.get(1)).dryRun()).isTrue();
        assertThat(actions).singleElement().asString().endsWith(" dry");
        assertThat(state.phase()).isEqualTo(WorkloadWindows.Phase.REPORTED);
    }
}
