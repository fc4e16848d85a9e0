package io.gpuaas.booking.http;

import io.gpuaas.kit.security.CallerResolver;
import io.gpuaas.kit.security.forwarded.ForwardedIdentityFetcher;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;

/**
 * Who the caller is, as the services see it. The page asks when it holds no pasted token: behind the cluster's
 * OAuth proxy the browser is signed in already (docs/sign-in.md) and the page shows who instead of a paste field.
 * Open to callers without credentials, who learn only that they are not signed in: a 401 here would be an error in
 * the browser console of every visit to the local stack's page, where pasting a token is the way in. A bearer token
 * that does not verify is still a 401, as everywhere.
 */
@Controller("/api/v1/me")
@Secured(SecurityRule.IS_ANONYMOUS)
public class MeController {

    /** {@code signedInBy}: {@code cluster} through the OAuth proxy, {@code token} with a bearer token. */
    public record Me(
            boolean signedIn,
            @Nullable String subject,
            @Nullable String tenant,
            List<String> namespaces,
            List<String> roles,
            @Nullable String signedInBy) {

        static final Me NOBODY = new Me(false, null, null, List.of(), List.of(), null);
    }

    private final CallerResolver callers;

    public MeController(CallerResolver callers) {
        this.callers = callers;
    }

    @Operation(
            summary =
                    "The caller: subject, tenant, namespaces, roles and how it signed in; signedIn false without a token")
    @Get(produces = MediaType.APPLICATION_JSON)
    public Me me(
            @Nullable @Header(HttpHeaders.AUTHORIZATION) String authorization,
            @Nullable Authentication authentication) {
        if (authentication == null && authorization != null) {
            throw new ProblemException(401, "UNAUTHENTICATED", "Authorization", "a valid bearer token is required");
        }
        if (authentication == null) {
            return Me.NOBODY;
        }
        var caller = callers.caller(authentication);
        Object by = authentication.getAttributes().get(ForwardedIdentityFetcher.SIGNED_IN_BY);
        return new Me(
                true,
                caller.subject(),
                caller.tenant(),
                List.copyOf(callers.namespaces(authentication)),
                authentication.getRoles().stream().sorted().toList(),
                by == null ? "token" : by.toString());
    }
}
