package io.gpuaas.booking.webhook;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Tenant webhooks, under {@code gpuaas.webhooks}. Without an encryption key webhooks are off: the API answers 503
 * and no notice is delivered (nothing could decrypt a secret).
 *
 * @param encryptionKey     base64 of 32 random bytes: the AES-256-GCM key of the signing secrets on
 *                          {@code gpuaas.webhooks} (a Kubernetes Secret); never logged
 * @param localHosts        hosts exempt from the https rule and the public-address rule (the tests' and the local
 *                          stack's loopback receivers); empty in production
 * @param maxPerTenant      endpoints one tenant may register
 * @param maxAttempts       HTTP attempts per delivery before it is dead-lettered
 * @param backoffInitial    wait before the first retry; doubled per retry, with jitter
 * @param backoffMax        longest wait between two attempts
 * @param connectTimeout    TCP and TLS connect timeout
 * @param requestTimeout    whole-response timeout of one attempt
 * @param inFlightPerEndpoint concurrent attempts to one endpoint
 * @param queuePerEndpoint  deliveries waiting for one endpoint before new ones are dead-lettered at once
 * @param maxPending        notices of one partition with deliveries in progress before the notices consumer pauses
 *                          that partition
 */
@ConfigurationProperties("gpuaas.webhooks")
public record WebhookSettings(
        @Nullable String encryptionKey,
        @Nullable List<String> localHosts,
        @Bindable(defaultValue = "10") int maxPerTenant,
        @Bindable(defaultValue = "8") int maxAttempts,
        @Bindable(defaultValue = "PT1S") Duration backoffInitial,
        @Bindable(defaultValue = "PT5M") Duration backoffMax,
        @Bindable(defaultValue = "PT2S") Duration connectTimeout,
        @Bindable(defaultValue = "PT5S") Duration requestTimeout,
        @Bindable(defaultValue = "2") int inFlightPerEndpoint,
        @Bindable(defaultValue = "1000") int queuePerEndpoint,
        @Bindable(defaultValue = "10000") int maxPending) {

    public WebhookSettings {
        localHosts = localHosts == null ? List.of() : List.copyOf(localHosts);
        if (maxAttempts < 1 || inFlightPerEndpoint < 1 || queuePerEndpoint < 1 || maxPending < 1 || maxPerTenant < 1) {
            throw new IllegalArgumentException("gpuaas.webhooks: attempts, limits and queues must be at least 1");
        }
    }

    /** Whether webhooks are on: a key is configured. */
    public boolean enabled() {
        return encryptionKey != null && !encryptionKey.isBlank();
    }

    /** {@link #localHosts} lower-cased, for the URL policy. */
    public Set<String> localHostSet() {
        return Set.copyOf(localHosts.stream()
                .map(h -> h.toLowerCase(java.util.Locale.ROOT))
                .toList());
    }

    /** Never prints the key. */
    @Override
    public String toString() {
        return "WebhookSettings[enabled=" + enabled() + ", localHosts=" + localHosts + ", maxPerTenant="
                + maxPerTenant + ", maxAttempts=" + maxAttempts + ", backoff=" + backoffInitial + ".." + backoffMax
                + ", timeouts=" + connectTimeout + "/" + requestTimeout + ", inFlightPerEndpoint="
                + inFlightPerEndpoint + ", queuePerEndpoint=" + queuePerEndpoint + ", maxPending=" + maxPending + "]";
    }
}
