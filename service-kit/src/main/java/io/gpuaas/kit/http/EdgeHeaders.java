package io.gpuaas.kit.http;

import io.micronaut.http.MutableHttpHeaders;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.types.files.FileCustomizableResponseType;

/**
 * The headers every answer of every service carries. {@code nosniff}, so a browser never runs an answer as another
 * type than it says; {@code X-Frame-Options: DENY} and CSP {@code frame-ancestors 'none'} (added to a policy the
 * answer already has), so no other site can frame the dashboard and trick a signed-in user into clicking "End now";
 * {@code Cache-Control: no-store} on everything but static files (JSON, CSV, problems, metrics), so no shared or
 * browser cache keeps a tenant's data.
 */
public final class EdgeHeaders {

    static final String NOSNIFF = "nosniff";
    static final String FRAME_ANCESTORS = "frame-ancestors 'none'";
    static final String CSP = "Content-Security-Policy";

    private EdgeHeaders() {}

    /** Sets the headers on {@code response}; idempotent, so the error path and the filter may both call it. */
    public static void apply(MutableHttpResponse<?> response) {
        MutableHttpHeaders headers = response.getHeaders();
        headers.set("X-Content-Type-Options", NOSNIFF);
        headers.set("X-Frame-Options", "DENY");
        String policy = headers.get(CSP);
        if (policy == null || policy.isBlank()) {
            headers.set(CSP, FRAME_ANCESTORS);
        } else if (!policy.contains("frame-ancestors")) {
            headers.set(CSP, withFrameAncestors(policy));
        }
        boolean staticFile = response.getBody().orElse(null) instanceof FileCustomizableResponseType;
        if (!staticFile && headers.get("Cache-Control") == null) {
            headers.set("Cache-Control", "no-store");
        }
    }

    static String withFrameAncestors(String policy) {
        String trimmed = policy.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
        }
        return trimmed + "; " + FRAME_ANCESTORS;
    }
}
