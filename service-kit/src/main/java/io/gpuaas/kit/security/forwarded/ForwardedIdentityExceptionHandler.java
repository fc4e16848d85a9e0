package io.gpuaas.kit.security.forwarded;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** The problem a refused forwarded identity carries, as problem+json (401s also say how to authenticate). */
@Produces
@Singleton
public class ForwardedIdentityExceptionHandler
        implements ExceptionHandler<ForwardedIdentityException, HttpResponse<String>> {

    @Override
    public HttpResponse<String> handle(HttpRequest request, ForwardedIdentityException exception) {
        var response = exception.problem().response(request.getPath());
        return exception.problem().status() == 401 ? response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer") : response;
    }
}
