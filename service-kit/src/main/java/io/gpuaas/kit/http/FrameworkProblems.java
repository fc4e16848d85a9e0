package io.gpuaas.kit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.exceptions.UnsatisfiedArgumentException;
import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.server.exceptions.NotAllowedException;
import io.micronaut.json.JsonSyntaxException;
import io.micronaut.web.router.exceptions.UnsatisfiedRouteException;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The problem for an error the framework (not a controller) answers: routing, binding, body size, JSON, security,
 * anything unhandled. Details are written here, never copied from an exception message, which may name Java
 * classes, libraries or internal state.
 */
public final class FrameworkProblems {

    private FrameworkProblems() {}

    /** The problem for a response of {@code status} caused by {@code cause} (null when there was no exception). */
    public static Problem describe(int status, @Nullable Throwable cause) {
        Problem fromCause = cause == null ? null : fromCause(status, cause);
        return fromCause != null ? fromCause : fromStatus(status);
    }

    private static Problem fromCause(int status, Throwable cause) {
        return switch (cause) {
            case ConversionErrorException e when jsonField(e) != null -> invalidField(jsonField(e));
            case ConversionErrorException e ->
                Problem.of(
                        HttpStatus.BAD_REQUEST,
                        "INVALID_PARAMETER",
                        name(e.getArgument().getName()),
                        "'" + e.getArgument().getName() + "' has a value that cannot be read as the expected type");
            case UnsatisfiedArgumentException e -> missing(e.getArgument().getName());
            case UnsatisfiedRouteException e -> missing(e.getArgument().getName());
            case JsonMappingException e when !e.getPath().isEmpty() -> invalidField(path(e));
            case JsonProcessingException e -> malformedJson();
            case JsonSyntaxException e -> malformedJson();
            case NotAllowedException e ->
                Problem.of(
                                HttpStatus.METHOD_NOT_ALLOWED,
                                "METHOD_NOT_ALLOWED",
                                null,
                                e.getRequestMethod() + " is not allowed on this path")
                        .with("allowed", List.copyOf(e.getAllowedMethods()));
            default ->
                status == 400 && cause.getCause() instanceof JsonProcessingException json
                        ? fromCause(status, json)
                        : null;
        };
    }

    private static Problem fromStatus(int status) {
        return switch (status) {
            case 400 -> Problem.of(HttpStatus.BAD_REQUEST, "BAD_REQUEST", null, "the request cannot be read");
            case 401 ->
                Problem.of(
                        HttpStatus.UNAUTHORIZED,
                        "UNAUTHENTICATED",
                        "Authorization",
                        "a valid bearer token is required");
            case 403 -> Problem.of(HttpStatus.FORBIDDEN, "FORBIDDEN", "Authorization", "the token does not allow this");
            case 404 -> Problem.of(HttpStatus.NOT_FOUND, "NOT_FOUND", null, "nothing is served at this path");
            case 405 ->
                Problem.of(
                        HttpStatus.METHOD_NOT_ALLOWED,
                        "METHOD_NOT_ALLOWED",
                        null,
                        "this method is not allowed on this path");
            case 406 ->
                Problem.of(
                        HttpStatus.NOT_ACCEPTABLE,
                        "NOT_ACCEPTABLE",
                        "Accept",
                        "no representation of this resource matches the Accept header");
            case 413 ->
                Problem.of(
                        HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                        "BODY_TOO_LARGE",
                        "body",
                        "the body is larger than this service accepts");
            case 415 ->
                Problem.of(
                        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                        "UNSUPPORTED_MEDIA_TYPE",
                        "Content-Type",
                        "this endpoint does not accept that Content-Type");
            case 429 ->
                Problem.of(HttpStatus.TOO_MANY_REQUESTS, "RATE_LIMITED", null, "too many requests, retry later");
            case 503 ->
                Problem.of(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "UNAVAILABLE",
                        null,
                        "the service cannot answer right now, retry later");
            default ->
                status >= 500
                        ? Problem.of(
                                HttpStatus.INTERNAL_SERVER_ERROR,
                                "INTERNAL",
                                null,
                                "the service failed to handle this request")
                        : new Problem(
                                status,
                                HttpStatus.valueOf(status).name(),
                                null,
                                HttpStatus.valueOf(status).getReason(),
                                java.util.Map.of());
        };
    }

    private static Problem invalidField(String field) {
        return Problem.of(
                HttpStatus.BAD_REQUEST, "INVALID_FIELD", field, "'" + field + "' has the wrong type or format");
    }

    private static Problem missing(String name) {
        return Problem.of(HttpStatus.BAD_REQUEST, "MISSING_PARAMETER", name(name), "'" + name + "' is required");
    }

    private static Problem malformedJson() {
        return Problem.of(HttpStatus.BAD_REQUEST, "MALFORMED_JSON", "body", "the body is not well-formed JSON");
    }

    private static String name(String argument) {
        return argument == null || argument.isBlank() ? null : argument;
    }

    /** The JSON field a body conversion failed on, when the cause says which. */
    private static @Nullable String jsonField(ConversionErrorException e) {
        Throwable cause = e.getCause();
        return cause instanceof JsonMappingException mapping
                        && !mapping.getPath().isEmpty()
                ? path(mapping)
                : null;
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .filter(Objects::nonNull)
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }
}
