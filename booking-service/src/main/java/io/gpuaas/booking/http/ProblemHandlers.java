package io.gpuaas.booking.http;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import io.micronaut.http.server.exceptions.ContentLengthExceededHandler;
import io.micronaut.http.server.exceptions.ConversionErrorHandler;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.UnsatisfiedArgumentHandler;
import io.micronaut.core.bind.exceptions.UnsatisfiedArgumentException;
import io.micronaut.security.authentication.AuthorizationException;
import io.micronaut.security.authentication.DefaultAuthorizationExceptionHandler;
import jakarta.inject.Singleton;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Map;

/** Every error of this service leaves as {@code application/problem+json}. */
public final class ProblemHandlers {

    private ProblemHandlers() {
    }

    @Singleton
    public static class Problem implements ExceptionHandler<ProblemException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, ProblemException exception) {
            return Problems.render(exception, request.getPath());
        }
    }

    @Singleton
    @Replaces(ContentLengthExceededHandler.class)
    public static class TooLarge implements ExceptionHandler<ContentLengthExceededException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, ContentLengthExceededException exception) {
            return Problems.render(413, "BODY_TOO_LARGE", "body", exception.getMessage(), request.getPath(), Map.of());
        }
    }

    @Singleton
    @Replaces(ConversionErrorHandler.class)
    public static class Conversion implements ExceptionHandler<ConversionErrorException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, ConversionErrorException exception) {
            return Problems.render(400, "INVALID_PARAMETER", exception.getArgument().getName(),
                    exception.getMessage(), request.getPath(), Map.of());
        }
    }

    @Singleton
    @Replaces(UnsatisfiedArgumentHandler.class)
    public static class Missing implements ExceptionHandler<UnsatisfiedArgumentException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, UnsatisfiedArgumentException exception) {
            return Problems.render(400, "MISSING_PARAMETER", exception.getArgument().getName(),
                    exception.getMessage(), request.getPath(), Map.of());
        }
    }

    /** {@code Content-Type: application/json; charset=latin-1} names no charset Java knows: the client's fault. */
    @Singleton
    public static class UnknownCharset implements ExceptionHandler<UnsupportedCharsetException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, UnsupportedCharsetException exception) {
            return charset(request, exception.getCharsetName());
        }
    }

    @Singleton
    public static class BadCharsetName implements ExceptionHandler<IllegalCharsetNameException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, IllegalCharsetNameException exception) {
            return charset(request, exception.getCharsetName());
        }
    }

    private static MutableHttpResponse<?> charset(HttpRequest<?> request, String name) {
        return Problems.render(415, "UNSUPPORTED_CHARSET", "Content-Type",
                "unsupported charset '" + name + "': send UTF-8", request.getPath(), Map.of());
    }

    @Singleton
    @Replaces(DefaultAuthorizationExceptionHandler.class)
    public static class Unauthorized implements ExceptionHandler<AuthorizationException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, AuthorizationException exception) {
            if (exception.isForbidden()) {
                return Problems.render(403, "FORBIDDEN", "Authorization", "the token does not allow this",
                        request.getPath(), Map.of());
            }
            return Problems.render(401, "UNAUTHENTICATED", "Authorization",
                    "a valid bearer token is required", request.getPath(), Map.of())
                    .header("WWW-Authenticate", "Bearer");
        }
    }
}
