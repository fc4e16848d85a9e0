package io.gpuaas.booking.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks 1.0 signing: the secret is {@code whsec_<base64 key>}, the signature
 * {@code v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + body)>}.
 */
public final class WebhookSigner {

    /** The prefix every Standard Webhooks secret carries. */
    public static final String SECRET_PREFIX = "whsec_";

    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSigner() {}

    /** A new secret: 32 random bytes, as Standard Webhooks writes them. */
    public static String newSecret() {
        byte[] key = new byte[SECRET_BYTES];
        RANDOM.nextBytes(key);
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /** The {@code webhook-signature} header value for one delivery attempt. */
    public static String sign(String secret, String messageId, long timestampSeconds, byte[] body) {
        if (!secret.startsWith(SECRET_PREFIX)) {
            throw new IllegalArgumentException("not a whsec_ secret");
        }
        byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((messageId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
