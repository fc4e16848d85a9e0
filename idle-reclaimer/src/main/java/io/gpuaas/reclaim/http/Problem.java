package io.gpuaas.reclaim.http;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;

/**
 * RFC 7807 problem details, served as {@code application/problem+json}.
 *
 * @param field the request field the problem is about, null when none
 * @param rule  the rule that was broken, machine-readable
 */
public record Problem(String type, String title, int status, String detail, String field, String rule) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static MutableHttpResponse<Problem> of(HttpStatus status, String detail, String field, String rule) {
        Problem problem = new Problem("https://gpuaas.io/problems/" + rule, status.getReason(), status.getCode(),
                detail, field, rule);
        return HttpResponse.<Problem>status(status).body(problem).contentType(MEDIA_TYPE);
    }
}
