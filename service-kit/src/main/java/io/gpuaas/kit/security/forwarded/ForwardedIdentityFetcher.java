package io.gpuaas.kit.security.forwarded;

import io.gpuaas.kit.config.ForwardedIdentitySettings;
import io.gpuaas.kit.config.SecuritySettings;
import io.gpuaas.kit.http.Problem;
import io.gpuaas.kit.security.forwarded.GroupMapping.Ambiguous;
import io.gpuaas.kit.security.forwarded.GroupMapping.Mapped;
import io.gpuaas.kit.security.forwarded.GroupMapping.Unmapped;
import io.gpuaas.kit.security.forwarded.UserLookup.Answer;
import io.gpuaas.kit.security.forwarded.UserLookup.Refused;
import io.gpuaas.kit.security.forwarded.UserLookup.Unavailable;
import io.gpuaas.kit.security.forwarded.UserLookup.User;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.filters.AuthenticationFetcher;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs in a request that carries the OAuth proxy's forwarded access token (and no {@code Authorization} header:
 * a bearer token the client chose wins). The token is never trusted as such: the API server says whose it is
 * ({@link UserLookup}), {@link GroupMapping} turns the user's groups into the tenant, namespaces and roles a JWT
 * caller would carry, under the same claim names, so every controller and {@code CallerResolver} work unchanged.
 * Exists only when {@code gpuaas.security.forwarded-identity.enabled}; without it the header means nothing.
 * Built at start so a missing or malformed mapping file stops the service rather than its first request.
 */
@Context
@Requires(property = "gpuaas.security.forwarded-identity.enabled", value = "true")
public class ForwardedIdentityFetcher implements AuthenticationFetcher<HttpRequest<?>> {

    /** Attribute naming how a caller signed in, for the page ({@code /api/v1/me}). */
    public static final String SIGNED_IN_BY = "signedInBy";

    private static final Logger LOG = LoggerFactory.getLogger(ForwardedIdentityFetcher.class);

    private final String header;
    private final SecuritySettings claims;
    private final GroupMapping mapping;
    private final AnswerCache answers;

    @Inject
    public ForwardedIdentityFetcher(ForwardedIdentitySettings settings, SecuritySettings claims) {
        this(settings, claims, loadMapping(settings), lookup(settings), Clock.systemUTC());
        LOG.info(
                "forwarded identity on: header {}, API server {}, {} mapped groups, cache {}",
                settings.header(),
                settings.apiServer(),
                mapping.size(),
                settings.cacheTtl());
    }

    public ForwardedIdentityFetcher(
            ForwardedIdentitySettings settings,
            SecuritySettings claims,
            GroupMapping mapping,
            UserLookup lookup,
            Clock clock) {
        this.header = settings.header();
        this.claims = claims;
        this.mapping = mapping;
        this.answers = new AnswerCache(lookup, settings.cacheTtl(), clock);
    }

    @Override
    public Publisher<Authentication> fetchAuthentication(HttpRequest<?> request) {
        String token = request.getHeaders().get(header);
        if (token == null || token.isBlank() || request.getHeaders().contains(HttpHeaders.AUTHORIZATION)) {
            return Publishers.empty();
        }
        boolean crossSite = !sameOriginOrSafe(request);
        return Publishers.fromCompletableFuture(
                () -> answers.answer(token.trim()).thenApply(answer -> {
                    if (crossSite) {
                        throw refusal(
                                HttpStatus.FORBIDDEN,
                                "CROSS_SITE_REQUEST",
                                "a change signed in by the cluster's session must come from this page (same origin)");
                    }
                    return authenticate(answer);
                }));
    }

    /**
     * Whether a request signed in by the proxy's session cookie may change anything. The cookie goes with any
     * request the browser sends to this host, a form posted from another site included, so a method that changes
     * state must say it comes from this origin: browsers set {@code Sec-Fetch-Site} themselves and a page cannot
     * forge it. Reads are answered either way (another site cannot read the answer). Clients without a browser
     * use bearer tokens, which no other site can attach.
     */
    static boolean sameOriginOrSafe(HttpRequest<?> request) {
        return switch (request.getMethod()) {
            case GET, HEAD, OPTIONS, TRACE -> true;
            default -> "same-origin".equals(request.getHeaders().get("Sec-Fetch-Site"));
        };
    }

    Authentication authenticate(Answer answer) {
        return switch (answer) {
            case User user -> signIn(user);
            case Refused refused ->
                throw refusal(
                        HttpStatus.UNAUTHORIZED,
                        "UNAUTHENTICATED",
                        "the cluster does not accept the signed-in session's token; sign in again");
            case Unavailable unavailable -> {
                LOG.warn("forwarded identity lookup failed: {}", unavailable.reason());
                throw refusal(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "IDENTITY_UNAVAILABLE",
                        "the cluster cannot say who is signed in right now, retry later");
            }
        };
    }

    private Authentication signIn(User user) {
        return switch (mapping.resolve(user.groups())) {
            case Mapped mapped -> {
                Map<String, Object> attributes = new HashMap<>();
                if (mapped.tenant() != null) {
                    attributes.put(claims.tenantClaim(), mapped.tenant());
                }
                attributes.put(claims.namespacesClaim(), mapped.namespaces());
                attributes.put(SIGNED_IN_BY, "cluster");
                yield Authentication.build(user.name(), mapped.roles(), attributes);
            }
            case Unmapped unmapped -> {
                LOG.debug("{} is in no mapped group", user.name());
                throw refusal(
                        HttpStatus.FORBIDDEN,
                        "NO_TENANT",
                        "you are signed in but in no group that gpuaas maps to a team; ask an admin");
            }
            case Ambiguous ambiguous -> {
                LOG.info("{} is in the groups of several tenants {}: refused", user.name(), ambiguous.tenants());
                throw refusal(
                        HttpStatus.FORBIDDEN,
                        "AMBIGUOUS_TENANT",
                        "you are in the groups of more than one team; gpuaas needs exactly one");
            }
        };
    }

    private static ForwardedIdentityException refusal(HttpStatus status, String rule, String detail) {
        return new ForwardedIdentityException(Problem.of(status, rule, null, detail));
    }

    private static GroupMapping loadMapping(ForwardedIdentitySettings settings) {
        try {
            return GroupMapping.load(Path.of(settings.mappingPath()));
        } catch (IOException | RuntimeException e) {
            throw new ConfigurationException(
                    "gpuaas.security.forwarded-identity.mapping-path: cannot read " + settings.mappingPath(), e);
        }
    }

    private static UserLookup lookup(ForwardedIdentitySettings settings) {
        try {
            Path ca = settings.caPath() == null ? null : Path.of(settings.caPath());
            return new OpenShiftUserLookup(settings.apiServer(), OpenShiftUserLookup.trusting(ca), settings.timeout());
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigurationException(
                    "gpuaas.security.forwarded-identity.ca-path: cannot read " + settings.caPath(), e);
        }
    }
}
