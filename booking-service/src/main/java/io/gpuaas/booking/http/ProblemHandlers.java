package io.gpuaas.booking.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/**
 * Booking's own problems leave as {@code application/problem+json}. What the framework refuses (oversized body,
 * unreadable parameter, missing or bad token, unknown charset, unmatched route, anything unhandled) is rendered
 * by service-kit's {@code ProblemErrorResponseProcessor} and {@code CharsetProblems} in the same shape, so no
 * exception type has two handlers.
 */
public final class ProblemHandlers {

    private ProblemHandlers() {}

    @Singleton
    public static class Problem implements ExceptionHandler<ProblemException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, ProblemException exception) {
            return exception.response(request.getPath());
        }
    }
}
