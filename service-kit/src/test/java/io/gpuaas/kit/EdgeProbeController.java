package io.gpuaas.kit;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import java.time.Instant;

/** Routes that make the framework fail in each of its ways: binding, JSON, media type, an unhandled exception. */
@Controller("/probe")
@Secured(SecurityRule.IS_AUTHENTICATED)
class EdgeProbeController {

    record Reading(int count, Instant at) {}

    @Post(uri = "/readings", consumes = MediaType.APPLICATION_JSON)
    Reading echo(@Body Reading reading) {
        return reading;
    }

    @Get("/count")
    int count(@QueryValue int n) {
        return n;
    }

    @Get("/boom")
    String boom() {
        throw new IllegalStateException("io.gpuaas.kit.internal.Secret failed at java.util.HashMap");
    }
}
