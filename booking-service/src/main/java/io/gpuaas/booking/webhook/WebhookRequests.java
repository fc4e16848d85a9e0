package io.gpuaas.booking.webhook;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.booking.http.RequestValidator;
import io.gpuaas.events.Json;
import io.gpuaas.events.webhook.WebhookRegistration;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/** Bodies of the webhook API, read field by field so every error names its field. */
public final class WebhookRequests {

    static final int MAX_DESCRIPTION = 256;
    private static final ObjectMapper TREE = Json.mapper().copy().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private WebhookRequests() {}

    /**
     * {@code POST /api/v1/webhooks}.
     *
     * @param url         https URL notices are POSTed to
     * @param description optional free text, at most 256 characters
     * @param tenant      the tenant the endpoint is for: required from admins, optional for a tenant (its own)
     */
    @Introspected
    public record CreateWebhookRequest(
            @Schema(example = "https://hooks.team-a.example/gpuaas")
            String url,

            @Nullable String description,
            @Nullable String tenant) {}

    /** An endpoint as the API shows it: never its secret. */
    @Introspected
    public record Webhook(
            String id, String tenant, String url, @Nullable String description, String createdBy, Instant createdAt) {

        static Webhook of(WebhookRegistration r) {
            return new Webhook(r.id(), r.tenant(), r.url(), r.description(), r.createdBy(), r.createdAt());
        }
    }

    /**
     * The answer to a registration: the endpoint and its signing secret, shown this once.
     *
     * @param secret {@code whsec_<base64>}: verify {@code webhook-signature} with it (Standard Webhooks 1.0)
     */
    @Introspected
    public record CreatedWebhook(
            String id,
            String tenant,
            String url,
            @Nullable String description,
            String createdBy,
            Instant createdAt,

            @Schema(description = "Standard Webhooks signing secret; shown only in this answer")
            String secret) {

        static CreatedWebhook of(WebhookRegistration r, String secret) {
            return new CreatedWebhook(
                    r.id(), r.tenant(), r.url(), r.description(), r.createdBy(), r.createdAt(), secret);
        }
    }

    static CreateWebhookRequest create(String body) {
        JsonNode o = object(body);
        String url = string(o, "url");
        if (url == null || url.isBlank()) {
            throw ProblemException.badRequest("REQUIRED", "url", "url is required");
        }
        String description = string(o, "description");
        if (description != null
                && (description.length() > MAX_DESCRIPTION
                        || description.chars().anyMatch(Character::isISOControl))) {
            throw ProblemException.badRequest(
                    "INVALID_FIELD", "description", "description: at most 256 characters, no control characters");
        }
        // An admin's tenant becomes the record key and the tenant notices are matched by: a DNS-1123 label, as a
        // booking's tenant is.
        return new CreateWebhookRequest(url, description, RequestValidator.dnsLabel("tenant", string(o, "tenant")));
    }

    private static JsonNode object(String body) {
        if (body == null || body.isBlank()) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "a JSON body is required");
        }
        JsonNode node;
        try {
            node = TREE.readTree(body);
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "the body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw ProblemException.badRequest("MALFORMED_JSON", "body", "the body must be a JSON object");
        }
        return node;
    }

    private static String string(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ProblemException.badRequest("INVALID_FIELD", field, field + " must be a string");
        }
        return v.textValue();
    }
}
