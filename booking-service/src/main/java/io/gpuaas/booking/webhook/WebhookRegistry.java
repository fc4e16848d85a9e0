package io.gpuaas.booking.webhook;

import io.gpuaas.events.webhook.WebhookRegistration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every registered endpoint, as this instance read it from the compacted {@code gpuaas.webhooks} topic (and wrote
 * it, so a tenant lists its endpoint right after registering it). Eventually consistent across replicas; a deletion
 * on another replica is seen within the replica's lag.
 */
public final class WebhookRegistry {

    private final Map<String, WebhookRegistration> byKey = new ConcurrentHashMap<>();

    /** Applies a record of the topic: a registration, or a delete (null) of {@code key}. */
    public void apply(String key, WebhookRegistration registrationOrNull) {
        if (registrationOrNull == null) {
            byKey.remove(key);
        } else if (key.equals(registrationOrNull.key())) {
            byKey.put(key, registrationOrNull);
        } else {
            // The key is what a tombstone deletes: a value under another key could never be deleted.
            throw new IllegalArgumentException("registration " + registrationOrNull.key() + " under key " + key);
        }
    }

    /** The tenant's endpoints, oldest first. */
    public List<WebhookRegistration> forTenant(String tenant) {
        return byKey.values().stream()
                .filter(r -> r.tenant().equals(tenant))
                .sorted(Comparator.comparing(WebhookRegistration::createdAt).thenComparing(WebhookRegistration::id))
                .toList();
    }

    /** Every endpoint, by tenant, oldest first. */
    public List<WebhookRegistration> all() {
        return byKey.values().stream()
                .sorted(Comparator.comparing(WebhookRegistration::tenant)
                        .thenComparing(WebhookRegistration::createdAt)
                        .thenComparing(WebhookRegistration::id))
                .toList();
    }

    /** The endpoint with {@code id}, whoever's it is. */
    public Optional<WebhookRegistration> find(String id) {
        return byKey.values().stream().filter(r -> r.id().equals(id)).findFirst();
    }

    /** The endpoint stored under {@code key} now, if it still exists. */
    public Optional<WebhookRegistration> byKey(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    public int size() {
        return byKey.size();
    }
}
