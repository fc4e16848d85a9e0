package io.gpuaas.quota.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecMatcherTest {

    private static final Map<String, Object> DESIRED = Map.of(
            "stopPolicy",
            "None",
            "resourceGroups",
            List.of(Map.of("flavors", List.of(Map.of("name", "h200", "nominalQuota", "3")))));

    @Test
    void shouldMatchWhenClusterAddsDefaultsAndNumbersComeBackUnquoted() {
        Map<String, Object> actual = Map.of(
                "stopPolicy",
                "None",
                "queueingStrategy",
                "BestEffortFIFO",
                "resourceGroups",
                List.of(Map.of("flavors", List.of(Map.of("name", "h200", "nominalQuota", 3)))));

        assertThat(SpecMatcher.covers(actual, DESIRED)).isTrue();
    }

    @Test
    void shouldSeeDriftWhenSomeoneChangesQuotaOrAddsAFlavor() {
        Map<String, Object> changed = Map.of(
                "stopPolicy",
                "None",
                "resourceGroups",
                List.of(Map.of("flavors", List.of(Map.of("name", "h200", "nominalQuota", "7")))));
        Map<String, Object> extra = Map.of(
                "stopPolicy",
                "None",
                "resourceGroups",
                List.of(Map.of(
                        "flavors",
                        List.of(
                                Map.of("name", "h200", "nominalQuota", "3"),
                                Map.of("name", "h100", "nominalQuota", "1")))));

        assertThat(SpecMatcher.covers(changed, DESIRED)).isFalse();
        assertThat(SpecMatcher.covers(extra, DESIRED)).isFalse();
        assertThat(SpecMatcher.covers(null, DESIRED)).isFalse();
    }
}
