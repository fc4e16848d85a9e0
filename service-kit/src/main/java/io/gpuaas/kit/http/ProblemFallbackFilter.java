package io.gpuaas.kit.http;

import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * The last word on error bodies: a 4xx or 5xx that leaves without a body (a controller answering a bare status,
 * a status route) gets the problem for its status, so no error of any service reaches a client empty or in
 * another format.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class ProblemFallbackFilter {

    @ResponseFilter
    public void fillEmptyErrors(HttpRequest<?> request, MutableHttpResponse<?> response) {
        if (response.code() >= 400 && response.getBody().isEmpty() && request.getMethod() != HttpMethod.HEAD) {
            response.contentType(Problem.MEDIA_TYPE);
            ((MutableHttpResponse<Object>) response)
                    .body(FrameworkProblems.describe(response.code(), null).json(request.getPath()));
        }
    }
}
