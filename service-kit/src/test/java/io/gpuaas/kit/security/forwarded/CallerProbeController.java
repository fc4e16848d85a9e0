package io.gpuaas.kit.security.forwarded;

import io.gpuaas.kit.security.CallerResolver;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import java.util.Map;

/** What a controller learns of its caller, whichever way the caller signed in. */
@Controller("/probe/caller")
@Secured(SecurityRule.IS_AUTHENTICATED)
class CallerProbeController {

    private final CallerResolver callers;

    CallerProbeController(CallerResolver callers) {
        this.callers = callers;
    }

    @Get
    Map<String, Object> caller(Authentication authentication) {
        return describe(authentication);
    }

    /** A change a browser page might make: refused before it runs when it comes from another site. */
    @Post
    Map<String, Object> change(Authentication authentication) {
        return describe(authentication);
    }

    private Map<String, Object> describe(Authentication authentication) {
        var caller = callers.caller(authentication);
        return Map.of(
                "name", caller.subject(),
                "tenant", String.valueOf(caller.tenant()),
                "admin", caller.admin(),
                "namespaces", callers.namespaces(authentication));
    }
}
