package io.gpuaas.kit.security.forwarded;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.testing.auth.FakeUserApi;
import io.gpuaas.testing.auth.TestJwt;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sign-in through the cluster's OAuth proxy, as a service sees it: real HTTP, a users/~ API, real JWTs beside. */
class ForwardedIdentityIT {

    private static final TestJwt JWT = TestJwt.generate();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String HEADER = "X-Forwarded-Access-Token";
    private static FakeUserApi api;
    private static EmbeddedServer enabled;
    private static EmbeddedServer disabled;

    @BeforeAll
    static void start() throws Exception {
        api = new FakeUserApi();
        api.user("sha256~alice", "alice", List.of("system:authenticated", "team-a"));
        api.user("sha256~root", "root", List.of("system:authenticated", "gpuaas-admins"));
        api.user("sha256~mallory", "mallory", List.of("system:authenticated"));
        api.user("sha256~both", "both", List.of("team-a", "team-b"));
        Path mapping = Files.writeString(Files.createTempFile("groups", ".yaml"), """
                groups:
                  - {group: team-a, tenant: team-a, namespaces: [team-a, team-a-dev]}
                  - {group: team-b, tenant: team-b}
                  - {group: gpuaas-admins, roles: [admin]}
                """);
        Map<String, Object> properties = new HashMap<>(edge());
        properties.put("gpuaas.security.forwarded-identity.enabled", true);
        properties.put("gpuaas.security.forwarded-identity.api-server", api.url());
        properties.put("gpuaas.security.forwarded-identity.mapping-path", mapping.toString());
        properties.put("gpuaas.security.forwarded-identity.cache-ttl", "PT1S");
        enabled = ApplicationContext.run(EmbeddedServer.class, properties);
        disabled = ApplicationContext.run(EmbeddedServer.class, edge());
    }

    private static Map<String, Object> edge() throws Exception {
        Path jwks = JWT.writeJwks(Files.createTempFile("jwks", ".json"));
        return Map.of(
                "micronaut.server.port",
                -1,
                "endpoints.all.enabled",
                false,
                "gpuaas.kafka.bootstrap-servers",
                "127.0.0.1:1",
                "gpuaas.security.issuer",
                TestJwt.ISSUER,
                "gpuaas.security.audience",
                TestJwt.AUDIENCE,
                "gpuaas.security.jwks-path",
                jwks.toString());
    }

    @AfterAll
    static void stop() {
        enabled.close();
        disabled.close();
        api.close();
    }

    @Test
    void shouldSignInWithTheTeamsTenantAndNamespacesWhenUserIsInATeamGroup() throws Exception {
        HttpResponse<String> response = get(enabled, HEADER, "sha256~alice");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("\"name\":\"alice\"", "\"tenant\":\"team-a\"", "\"admin\":false")
                .contains("\"namespaces\":[\"team-a\",\"team-a-dev\"]");
    }

    @Test
    void shouldBeAdminWhenUserIsInTheAdminGroup() throws Exception {
        assertThat(get(enabled, HEADER, "sha256~root").body()).contains("\"admin\":true");
    }

    @Test
    void shouldAnswer403WithoutTheTokenWhenUserIsInNoMappedGroup() throws Exception {
        HttpResponse<String> response = get(enabled, HEADER, "sha256~mallory");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"rule\":\"NO_TENANT\"").doesNotContain("sha256~");
    }

    @Test
    void shouldAnswer403WhenUserIsInTwoTeamsGroups() throws Exception {
        HttpResponse<String> response = get(enabled, HEADER, "sha256~both");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("\"rule\":\"AMBIGUOUS_TENANT\"");
    }

    @Test
    void shouldAnswer401WhenTheClusterDoesNotKnowTheToken() throws Exception {
        HttpResponse<String> response = get(enabled, HEADER, "sha256~forged");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).doesNotContain("sha256~forged");
    }

    @Test
    void shouldStopAcceptingARevokedTokenOnceTheCacheEntryExpires() throws Exception {
        api.user("sha256~carol", "carol", List.of("team-b"));
        assertThat(get(enabled, HEADER, "sha256~carol").statusCode()).isEqualTo(200);

        api.revoke("sha256~carol");

        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> get(enabled, HEADER, "sha256~carol").statusCode() == 401);
    }

    @Test
    void shouldKeepAcceptingBearerJwtsWhenForwardedIdentityIsOn() throws Exception {
        String jwt = JWT.token("bob", "team-b", List.of("team-b"), List.of(), Duration.ofMinutes(5));

        HttpResponse<String> response = get(enabled, "Authorization", "Bearer " + jwt);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"tenant\":\"team-b\"");
    }

    @Test
    void shouldIgnoreTheHeaderWhenForwardedIdentityIsOff() throws Exception {
        int before = api.lookups();

        HttpResponse<String> response = get(disabled, HEADER, "sha256~alice");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(api.lookups()).isEqualTo(before);
    }

    @Test
    void shouldRefuseACrossSiteChangeWithAProblemWhetherOrNotTheAnswerIsCached() throws Exception {
        api.user("sha256~dave", "dave", List.of("team-a"));
        for (String method : List.of("POST", "POST", "DELETE", "PUT")) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(enabled.getURL() + "/probe/caller"))
                    .header(HEADER, "sha256~dave")
                    .header("Sec-Fetch-Site", "cross-site")
                    .method(method, HttpRequest.BodyPublishers.noBody())
                    .build();
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).as(method).isEqualTo(403);
            assertThat(response.headers().firstValue("Content-Type")).as(method).hasValue("application/problem+json");
            assertThat(response.body()).as(method).contains("\"rule\":\"CROSS_SITE_REQUEST\"", "\"detail\":");
        }
    }

    private static HttpResponse<String> get(EmbeddedServer server, String header, String value) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.getURL() + "/probe/caller"))
                .header(header, value)
                .GET()
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
