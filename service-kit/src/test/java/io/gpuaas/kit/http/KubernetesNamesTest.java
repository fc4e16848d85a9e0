package io.gpuaas.kit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KubernetesNamesTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "../../team-b/inferenceservices/demo-llm",
                "a b",
                "a\r\nb",
                "Team-A",
                "-a",
                "a-",
                "",
                "a.b",
                "team_a",
                "a/b",
                "%2e%2e"
            })
    void shouldRefuseNamespacesThatAreNotDns1123Labels(String namespace) {
        assertThat(KubernetesNames.label("namespace", namespace)).hasValueSatisfying(p -> {
            assertThat(p.status()).isEqualTo(400);
            assertThat(p.field()).isEqualTo("namespace");
            assertThat(p.rule()).isEqualTo("DNS1123_LABEL");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../team-b/inferenceservices/demo-llm", "a b", "a\r\nb", "Demo", "a..b", ".a", "a.", ""})
    void shouldRefuseNamesThatAreNotDns1123Subdomains(String name) {
        assertThat(KubernetesNames.subdomain("name", name)).isPresent();
    }

    @Test
    void shouldAcceptKubernetesNamesAtTheirLimits() {
        assertThat(KubernetesNames.label("namespace", "a".repeat(63))).isEmpty();
        assertThat(KubernetesNames.label("namespace", "a".repeat(64))).isPresent();
        assertThat(KubernetesNames.subdomain("name", "demo-llm.v2")).isEmpty();
        String longest = ("a".repeat(63) + ".").repeat(3) + "a".repeat(61);
        assertThat(longest).hasSize(253);
        assertThat(KubernetesNames.subdomain("name", longest)).isEmpty();
        assertThat(KubernetesNames.subdomain("name", longest + "a")).isPresent();
    }

    @Test
    void shouldRefillTheTenantsBucketWhenTimePasses() {
        AtomicLong now = new AtomicLong();
        TenantRateLimiter limiter = new TenantRateLimiter(0.5, 2, now::get);

        assertThat(limiter.tryAcquire("team-a")).isEmpty();
        assertThat(limiter.tryAcquire("team-a")).isEmpty();
        assertThat(limiter.tryAcquire("team-a")).hasValue(Duration.ofSeconds(2));
        assertThat(limiter.tryAcquire("team-b")).as("another tenant's bucket").isEmpty();
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(limiter.tryAcquire("team-a")).isEmpty();
    }
}
