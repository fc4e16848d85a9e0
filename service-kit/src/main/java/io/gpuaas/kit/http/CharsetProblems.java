package io.gpuaas.kit.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;

/**
 * {@code Content-Type: application/json; charset=latin-1} names a charset Java does not know: the client's fault
 * (415), not a 500. Both exceptions reach the server as plain runtime exceptions, so each gets a handler.
 */
public final class CharsetProblems {

    private CharsetProblems() {}

    static MutableHttpResponse<String> unsupported(HttpRequest<?> request, String charset) {
        return Problem.of(
                        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                        "UNSUPPORTED_CHARSET",
                        "Content-Type",
                        "unsupported charset '" + charset + "': send UTF-8")
                .response(request.getPath());
    }

    @Singleton
    public static class UnknownCharset
            implements ExceptionHandler<UnsupportedCharsetException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, UnsupportedCharsetException exception) {
            return unsupported(request, exception.getCharsetName());
        }
    }

    @Singleton
    public static class BadCharsetName
            implements ExceptionHandler<IllegalCharsetNameException, MutableHttpResponse<?>> {
        @Override
        public MutableHttpResponse<?> handle(HttpRequest request, IllegalCharsetNameException exception) {
            return unsupported(request, exception.getCharsetName());
        }
    }
}
