package io.gpuaas.kit.http;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;

/**
 * Every error body the framework writes (unmatched route, 405, 413, 415, binding and JSON errors, 401/403 from
 * security, unhandled exceptions, a request line or headers too long for Netty's decoder: 414/431, see
 * {@link OverlongRequests}) is an {@code application/problem+json} document from {@link FrameworkProblems}.
 * Micronaut's own processor steps aside when this bean exists; it would answer JSON or HTML carrying exception
 * messages.
 */
@Singleton
public class ProblemErrorResponseProcessor implements ErrorResponseProcessor<String> {

    @Override
    @SuppressWarnings("unchecked")
    public MutableHttpResponse<String> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        MutableHttpResponse<String> typed = (MutableHttpResponse<String>) response;
        // A request Netty could not decode never reaches the filters: the edge headers are set here too.
        EdgeHeaders.apply(typed);
        Problem overlong = OverlongRequests.problem(context.getRequest()).orElse(null);
        if (overlong != null) {
            typed.status(HttpStatus.valueOf(overlong.status()));
        }
        if (context.getRequest().getMethod() == HttpMethod.HEAD) {
            return typed;
        }
        Problem problem = overlong != null
                ? overlong
                : FrameworkProblems.describe(
                        response.code(), context.getRootCause().orElse(null));
        if (response.code() == 401 && response.getHeaders().get(HttpHeaders.WWW_AUTHENTICATE) == null) {
            typed.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return typed.contentType(Problem.MEDIA_TYPE)
                .body(problem.json(context.getRequest().getPath()));
    }
}
