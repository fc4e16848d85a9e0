package io.gpuaas.kit.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.Optional;

/**
 * Netty refuses a request line over {@code micronaut.server.netty.max-initial-line-length} (default 4096) or headers
 * over {@code max-header-size} while decoding, and Micronaut answers any such refusal 413 as if the body were too
 * large. The client can fix neither by sending a smaller body: a URI (path and query) too long is 414, headers too
 * large 431 (RFC 9110, RFC 6585), each named as such.
 */
final class OverlongRequests {

    private OverlongRequests() {}

    /** The problem for a request Netty refused as too long, if it was one. */
    static Optional<Problem> problem(HttpRequest<?> request) {
        if (!(request instanceof NettyHttpRequest<?> netty)) {
            return Optional.empty();
        }
        Throwable cause = netty.getNativeRequest().decoderResult().cause();
        return switch (cause) {
            case TooLongHttpLineException e ->
                Optional.of(Problem.of(
                        HttpStatus.REQUEST_URI_TOO_LONG,
                        "URI_TOO_LONG",
                        "uri",
                        "the request line (method, path and query) is longer than this service accepts"));
            case TooLongHttpHeaderException e ->
                Optional.of(Problem.of(
                        HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                        "HEADERS_TOO_LARGE",
                        "headers",
                        "the request headers are larger than this service accepts"));
            case null, default -> Optional.empty();
        };
    }
}
