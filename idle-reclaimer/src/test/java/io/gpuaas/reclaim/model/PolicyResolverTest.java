package io.gpuaas.reclaim.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyResolverTest {

    private final List<String> rejected = new ArrayList<>();
    private final PolicyResolver resolver = new PolicyResolver(IdlePolicy.defaults(), rejected::add);

    @Test
    void shouldUseTheDocumentedDefaultsWithoutAnnotations() {
        IdlePolicy policy = resolver.resolve(Map.of(), Map.of());

        assertThat(policy.threshold()).isEqualTo(0.01);
        assertThat(policy.window()).isEqualTo(Duration.ofMinutes(15));
        assertThat(policy.sampleInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(policy.warmUp()).isEqualTo(Duration.ofMinutes(10));
        assertThat(policy.slots()).isEqualTo(180);
        assertThat(policy.requiredSamples()).isEqualTo(162);
        assertThat(policy.gpuUtilMinWindow()).isEqualTo(Duration.ofMinutes(5));
        assertThat(policy.reclaimEnabled()).isTrue();
    }

    @Test
    void shouldLetTheWorkloadOverrideTheNamespace() {
        IdlePolicy policy = resolver.resolve(
                Map.of(PolicyResolver.THRESHOLD, "10%", PolicyResolver.WINDOW, "30m"),
                Map.of(PolicyResolver.WINDOW, "PT1H"));

        assertThat(policy.threshold()).isEqualTo(0.10);
        assertThat(policy.window()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void shouldOptOutOnAnythingButTrue() {
        assertThat(resolver.resolve(Map.of(PolicyResolver.RECLAIM, "false"), Map.of())
                        .reclaimEnabled())
                .isFalse();
        assertThat(resolver.resolve(Map.of(), Map.of(PolicyResolver.RECLAIM, "flase"))
                        .reclaimEnabled())
                .isFalse();
        assertThat(resolver.resolve(Map.of(PolicyResolver.RECLAIM, "false"), Map.of(PolicyResolver.RECLAIM, "true"))
                        .reclaimEnabled())
                .isTrue();
    }

    @Test
    void shouldKeepTheDefaultAndReportWhenAValueIsMalformed() {
        IdlePolicy policy = resolver.resolve(
                Map.of(),
                Map.of(PolicyResolver.THRESHOLD, "150%", PolicyResolver.WINDOW, "soon", PolicyResolver.WARM_UP, "-5m"));

        assertThat(policy).isEqualTo(IdlePolicy.defaults());
        assertThat(rejected).hasSize(3);
    }

    @Test
    void shouldAcceptAZeroWarmUp() {
        assertThat(resolver.resolve(Map.of(), Map.of(PolicyResolver.WARM_UP, "0s"))
                        .warmUp())
                .isZero();
    }
}
