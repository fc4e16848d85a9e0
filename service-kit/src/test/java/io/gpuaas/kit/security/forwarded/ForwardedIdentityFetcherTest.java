package io.gpuaas.kit.security.forwarded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.kit.config.ForwardedIdentitySettings;
import io.gpuaas.kit.config.SecuritySettings;
import io.gpuaas.kit.security.forwarded.GroupMapping.Entry;
import io.gpuaas.kit.security.forwarded.UserLookup.Answer;
import io.gpuaas.kit.security.forwarded.UserLookup.Refused;
import io.gpuaas.kit.security.forwarded.UserLookup.Unavailable;
import io.gpuaas.kit.security.forwarded.UserLookup.User;
import io.micronaut.security.authentication.Authentication;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The fetcher's decisions and its cache, with a scripted API server and a clock moved by hand. */
class ForwardedIdentityFetcherTest {

    private static final SecuritySettings CLAIMS =
            new SecuritySettings(null, "gpuaas-local", "gpuaas", null, "tenant", "namespaces", "admin", "metrics");
    private static final ForwardedIdentitySettings SETTINGS =
            new ForwardedIdentitySettings(true, null, null, null, "/unused", Duration.ofSeconds(30), null);

    private final Map<String, Answer> apiServer = new ConcurrentHashMap<>();
    private final List<String> asked = new ArrayList<>();
    private Instant now = Instant.parse("2026-11-25T08:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final UserLookup lookup = token -> {
        asked.add(token);
        return CompletableFuture.completedFuture(apiServer.getOrDefault(token, new Refused(401)));
    };
    private final GroupMapping mapping = new GroupMapping(List.of(
            new Entry("team-a", "team-a", List.of("team-a", "team-a-dev"), List.of()),
            new Entry("gpuaas-admins", null, List.of(), List.of("admin"))));
    private final AnswerCache cache = new AnswerCache(lookup, SETTINGS.cacheTtl(), clock);
    private final ForwardedIdentityFetcher fetcher =
            new ForwardedIdentityFetcher(SETTINGS, CLAIMS, mapping, lookup, clock);

    @Test
    void shouldCarryTenantNamespacesAndRolesUnderTheJwtClaimNamesWhenUserIsMapped() {
        Authentication auth = fetcher.authenticate(new User("alice", List.of("team-a", "gpuaas-admins")));

        assertThat(auth.getName()).isEqualTo("alice");
        assertThat(auth.getRoles()).containsExactly("admin");
        assertThat(auth.getAttributes())
                .containsEntry("tenant", "team-a")
                .containsEntry("namespaces", List.of("team-a", "team-a-dev"));
    }

    @Test
    void shouldAnswer403WhenUserIsInNoMappedGroup() {
        assertThatThrownBy(() -> fetcher.authenticate(new User("mallory", List.of("system:authenticated"))))
                .isInstanceOfSatisfying(ForwardedIdentityException.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(403);
                    assertThat(e.problem().rule()).isEqualTo("NO_TENANT");
                });
    }

    @Test
    void shouldAnswer401WhenApiServerRefusesAnd503WhenItDoesNotAnswer() {
        assertThatThrownBy(() -> fetcher.authenticate(new Refused(401)))
                .isInstanceOfSatisfying(
                        ForwardedIdentityException.class,
                        e -> assertThat(e.problem().status()).isEqualTo(401));
        assertThatThrownBy(() -> fetcher.authenticate(new Unavailable("down")))
                .isInstanceOfSatisfying(
                        ForwardedIdentityException.class,
                        e -> assertThat(e.problem().status()).isEqualTo(503));
    }

    @Test
    void shouldAskTheApiServerOncePerTokenWithinTheTtl() {
        apiServer.put("tok-alice", new User("alice", List.of("team-a")));

        cache.answer("tok-alice").join();
        now = now.plusSeconds(29);
        Answer second = cache.answer("tok-alice").join();

        assertThat(second).isEqualTo(new User("alice", List.of("team-a")));
        assertThat(asked).containsExactly("tok-alice");
    }

    @Test
    void shouldSeeARevocationOnceTheTtlHasPassed() {
        apiServer.put("tok-alice", new User("alice", List.of("team-a")));
        cache.answer("tok-alice").join();

        apiServer.remove("tok-alice"); // revoked: the API server answers 401 from now on
        now = now.plusSeconds(30);

        assertThat(cache.answer("tok-alice").join()).isEqualTo(new Refused(401));
        assertThat(asked).hasSize(2);
    }

    @Test
    void shouldAskAgainWhenTheApiServerDidNotAnswer() {
        apiServer.put("tok-alice", new Unavailable("down"));
        cache.answer("tok-alice").join();
        apiServer.put("tok-alice", new User("alice", List.of("team-a")));

        assertThat(cache.answer("tok-alice").join()).isInstanceOf(User.class);
        assertThat(asked).hasSize(2);
    }

    @Test
    void shouldNeverHoldTheTokenItself() {
        assertThat(AnswerCache.hash("tok-alice")).hasSize(64).doesNotContain("tok-alice");
    }
}
