package io.gpuaas.booking.webhook;

import io.gpuaas.booking.http.ProblemException;
import io.gpuaas.booking.webhook.WebhookRequests.CreateWebhookRequest;
import io.gpuaas.booking.webhook.WebhookRequests.CreatedWebhook;
import io.gpuaas.booking.webhook.WebhookRequests.Webhook;
import io.gpuaas.events.booking.Caller;
import io.gpuaas.events.webhook.WebhookRegistration;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers, lists and deletes tenants' endpoints. A tenant sees and deletes only its own (another's is a 404, as
 * if it did not exist); an admin sees and deletes any. The secret is generated here, sealed for the topic and
 * returned to the caller once. Each registration and deletion is logged with the endpoint's id, its tenant and who
 * acted, never its URL (receivers such as chat hooks carry a credential in it) or its secret.
 */
public final class WebhookRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookRegistrations.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final WebhookRegistry registry;
    private final WebhookStore store;
    private final Optional<SecretBox> box;
    private final UrlPolicy policy;
    private final int maxPerTenant;
    private final Clock clock;

    /** @param box empty when webhooks are off (no encryption key): every call answers 503 */
    public WebhookRegistrations(
            WebhookRegistry registry,
            WebhookStore store,
            Optional<SecretBox> box,
            UrlPolicy policy,
            int maxPerTenant,
            Clock clock) {
        this.registry = registry;
        this.store = store;
        this.box = box;
        this.policy = policy;
        this.maxPerTenant = maxPerTenant;
        this.clock = clock;
    }

    /** Registers an endpoint for {@code actor}'s tenant (already resolved: an admin named it). */
    public CreatedWebhook register(Caller actor, CreateWebhookRequest request) {
        SecretBox sealer = enabled();
        try {
            policy.check(request.url());
        } catch (UrlPolicy.Refused refused) {
            throw new ProblemException(refused.status(), refused.rule(), "url", refused.getMessage());
        }
        if (registry.forTenant(actor.tenant()).size() >= maxPerTenant) {
            throw new ProblemException(
                    409,
                    "TOO_MANY_WEBHOOKS",
                    null,
                    "a tenant may register at most " + maxPerTenant + " webhooks; delete one first");
        }
        String id = "wh-" + HexFormat.of().formatHex(randomBytes(8));
        String secret = WebhookSigner.newSecret();
        String key = WebhookRegistration.key(actor.tenant(), id);
        WebhookRegistration registration = new WebhookRegistration(
                id,
                actor.tenant(),
                request.url(),
                request.description(),
                sealer.seal(secret, key),
                actor.subject(),
                clock.instant());
        store.put(registration);
        LOG.info("webhook {} registered for tenant {} by {}", id, actor.tenant(), actor.subject());
        return CreatedWebhook.of(registration, secret);
    }

    /** The caller's endpoints; an admin's are all of them, or one tenant's when it names one. */
    public List<Webhook> list(Caller caller, String tenant) {
        enabled();
        List<WebhookRegistration> visible;
        if (caller.admin()) {
            visible = tenant == null ? registry.all() : registry.forTenant(tenant);
        } else {
            visible = registry.forTenant(caller.tenant());
        }
        return visible.stream().map(Webhook::of).toList();
    }

    /** Deletes the endpoint {@code id}: the caller's own, or any for an admin; 404 otherwise. */
    public void delete(Caller caller, String id) {
        enabled();
        WebhookRegistration found = registry.find(id)
                .filter(r -> caller.admin() || r.tenant().equals(caller.tenant()))
                .orElseThrow(() -> new ProblemException(404, "NOT_FOUND", "id", "no webhook " + id));
        store.delete(found);
        LOG.info("webhook {} of tenant {} deleted by {}", id, found.tenant(), caller.subject());
    }

    private SecretBox enabled() {
        return box.orElseThrow(() ->
                new ProblemException(503, "WEBHOOKS_DISABLED", null, "webhooks are not configured on this deployment"));
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
