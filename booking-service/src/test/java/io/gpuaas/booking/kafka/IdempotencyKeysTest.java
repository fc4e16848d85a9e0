package io.gpuaas.booking.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.booking.Caller;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final Caller TEAM_A = new Caller("alice", "team-a", false);

    private final IdempotencyKeys keys = new IdempotencyKeys(Duration.ofDays(7), Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldBindAKeyToTheFirstRequestOfItsTenant() {
        String create = IdempotencyKeys.fingerprint("POST", "/api/v1/bookings", "{\"pool\":\"h200\"}");
        String cancel = IdempotencyKeys.fingerprint("DELETE", "/api/v1/bookings/b1", "");

        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), "k", cancel)).isTrue();
        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), "k", cancel))
                .as("the same request again")
                .isTrue();
        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), "k", create)).isFalse();
        assertThat(keys.claim("tenant:team-b", "k", create))
                .as("another tenant's key")
                .isTrue();
        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), null, create))
                .as("no key binds nothing")
                .isTrue();
    }

    @Test
    void shouldHonourKeysLearnedFromTheCommandTopicAndForgetThemAfterTheRetention() {
        keys.learn(TEAM_A, "old", "fp-1", NOW.minus(Duration.ofDays(8)));
        keys.learn(TEAM_A, "recent", "fp-1", NOW.minus(Duration.ofDays(1)));

        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), "recent", "fp-2")).isFalse();
        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), "old", "fp-2"))
                .as("expired, bound anew")
                .isTrue();
    }

    @Test
    void shouldNotRefuseATenantsKeyWhenBookingServiceItselfUsedItForThatTenant() {
        keys.learn(Caller.system("no-show-release", "team-a"), "no-show/b1", "fp-system", NOW);

        assertThat(keys.claim(IdempotencyKeys.scope(TEAM_A), "no-show/b1", "fp-tenant"))
                .isTrue();
    }

    @Test
    void shouldScopeAnAdminWithoutTenantByItsSubject() {
        assertThat(IdempotencyKeys.scope(new Caller("root", null, true))).isEqualTo("subject:root");
        assertThat(IdempotencyKeys.scope(new Caller("root", "team-a", true))).isEqualTo("tenant:team-a");
    }
}
