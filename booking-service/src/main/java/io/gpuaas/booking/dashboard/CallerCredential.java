package io.gpuaas.booking.dashboard;

import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.kit.config.ForwardedIdentitySettings;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;

/**
 * The credential a caller came with, forwarded unchanged so that the service behind checks the caller itself: the
 * {@code Authorization} header, or, for a user the cluster's OAuth proxy signed in (docs/sign-in.md), the proxy's
 * forwarded access token. An {@code Authorization} header wins, as it does when the request is authenticated.
 *
 * @param header the header to send it in
 * @param value  the header's value (never logged: {@link #toString()} leaves it out)
 */
public record CallerCredential(String header, String value) {

    /** The credential the authenticated {@code request} carried. */
    public static CallerCredential of(HttpRequest<?> request, ForwardedIdentitySettings forwarded) {
        String authorization = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
        if (authorization != null && !authorization.isBlank()) {
            return new CallerCredential(HttpHeaders.AUTHORIZATION, authorization.trim());
        }
        String token = forwarded.enabled() ? request.getHeaders().get(forwarded.header()) : null;
        if (token != null && !token.isBlank()) {
            return new CallerCredential(forwarded.header(), token.trim());
        }
        // Authentication passed, so one of the two was there; this is a request the security filter let through
        // without either, and it must not reach another service anonymously.
        throw new ProblemException(401, "UNAUTHENTICATED", null, "no credential to forward");
    }

    @Override
    public String toString() {
        return "CallerCredential[" + header + "]";
    }
}
