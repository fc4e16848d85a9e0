package io.gpuaas.events.webhook;

import java.time.Instant;

/**
 * A tenant's webhook endpoint, the values of the compacted {@code gpuaas.webhooks} topic keyed by
 * {@code <tenant>/<id>}; a tombstone on that key deletes it. Written by booking-service when a tenant registers an
 * endpoint, read back by every booking-service replica, which delivers the tenant's notices to it.
 *
 * <p>The signing secret is never on the topic in the clear: {@link #encryptedSecret()} is AES-256-GCM under a key only
 * booking-service holds, with the record key as associated data (a copied ciphertext does not decrypt under another
 * key), so the SRE who reads every topic cannot sign as gpuaas.
 *
 * @param id              the endpoint's id, e.g. {@code wh-3f9c...}
 * @param tenant          the tenant whose notices go to the endpoint
 * @param url             where they are POSTed (https, checked against the SSRF rules when registered)
 * @param description     free text the tenant gave, or null
 * @param encryptedSecret {@code v1.<base64 of 12-byte nonce + ciphertext + tag>} of the {@code whsec_...} secret
 * @param createdBy       the subject that registered it
 * @param createdAt       when it was registered
 */
public record WebhookRegistration(
        String id,
        String tenant,
        String url,
        String description,
        String encryptedSecret,
        String createdBy,
        Instant createdAt) {

    /** The record key of a registration: {@code <tenant>/<id>}. */
    public static String key(String tenant, String id) {
        return tenant + "/" + id;
    }

    /** This registration's record key. */
    public String key() {
        return key(tenant, id);
    }
}
