package io.gpuaas.booking.webhook;

import io.gpuaas.booking.http.CallerGuard;
import io.gpuaas.booking.http.RequestValidator;
import io.gpuaas.booking.webhook.WebhookRequests.CreateWebhookRequest;
import io.gpuaas.booking.webhook.WebhookRequests.CreatedWebhook;
import io.gpuaas.booking.webhook.WebhookRequests.Webhook;
import io.gpuaas.events.booking.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.util.List;

/**
 * Tenants' webhook endpoints: every notice of the tenant ({@code gpuaas.notices}) is POSTed to each, signed per
 * Standard Webhooks 1.0. Blocking calls (DNS checks, the broker's acknowledgement) run off the event loop.
 */
@Controller("/api/v1/webhooks")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
public class WebhookController {

    private final CallerGuard guard;
    private final WebhookRegistrations registrations;

    public WebhookController(CallerGuard guard, WebhookRegistrations registrations) {
        this.guard = guard;
        this.registrations = registrations;
    }

    @Operation(
            summary = "Register a webhook endpoint for the tenant's notices",
            description =
                    "201 with the endpoint and its signing secret (whsec_..., Standard Webhooks), shown only in "
                            + "this answer. The url must be https and its host must resolve to public addresses only "
                            + "(422 HTTPS_REQUIRED, PRIVATE_ADDRESS, UNRESOLVABLE_HOST; 400 INVALID_URL, INVALID_PORT); at most "
                            + "gpuaas.webhooks.max-per-tenant endpoints per tenant (409 TOO_MANY_WEBHOOKS). Admins must name "
                            + "the tenant (422; a DNS-1123 label, else 400 INVALID_NAME); a tenant may omit it or name itself (another: 403).")
    @RequestBody(
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = CreateWebhookRequest.class)))
    @ApiResponse(
            responseCode = "201",
            description = "registered; the secret is in this answer only",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = CreatedWebhook.class)))
    @Post(consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<CreatedWebhook> create(@Nullable @Body String body, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        CreateWebhookRequest request = WebhookRequests.create(body);
        Caller actor = guard.actingFor(caller, request.tenant());
        CreatedWebhook created = registrations.register(actor, request);
        return HttpResponse.created(created, URI.create("/api/v1/webhooks/" + created.id()));
    }

    @Operation(summary = "List the tenant's webhook endpoints (admins: all, or one tenant's); never their secrets")
    @Get(produces = MediaType.APPLICATION_JSON)
    public List<Webhook> list(@Nullable @QueryValue String tenant, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        return registrations.list(caller, RequestValidator.dnsLabel("tenant", tenant));
    }

    @Operation(summary = "Delete a webhook endpoint; another tenant's answers 404")
    @ApiResponse(responseCode = "204", description = "deleted; its notices are no longer sent")
    @Delete(uri = "/{id}")
    public HttpResponse<Void> delete(@PathVariable String id, Authentication authentication) {
        Caller caller = guard.admit(authentication);
        registrations.delete(caller, id);
        return HttpResponse.noContent();
    }
}
