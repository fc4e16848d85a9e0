package io.gpuaas.booking.http;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Serves the OpenAPI document micronaut-openapi generated at compile time. */
@Controller
@Secured(SecurityRule.IS_ANONYMOUS)
public class OpenApiController {

    static final String DOCUMENT = "META-INF/swagger/gpuaas-booking-1.0.yml";

    private final String yaml;

    public OpenApiController() {
        try (InputStream in = OpenApiController.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("the build did not generate " + DOCUMENT);
            }
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Hidden
    @Get(uri = "/openapi", produces = "application/yaml")
    public HttpResponse<String> document() {
        return HttpResponse.ok(yaml).contentType("application/yaml");
    }
}
