package io.gpuaas.booking.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts webhook signing secrets for the topic: AES-256-GCM, a random 96-bit nonce per secret, the record key as
 * associated data so a ciphertext copied onto another registration does not decrypt. Written as
 * {@code v1.<base64(nonce | ciphertext | tag)>}; the version leaves room for key rotation.
 */
public final class SecretBox {

    private static final String PREFIX = "v1.";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    /** @param base64Key base64 of exactly 32 bytes */
    public SecretBox(String base64Key) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64Key.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gpuaas.webhooks.encryption-key is not base64");
        }
        if (raw.length != 32) {
            throw new IllegalArgumentException(
                    "gpuaas.webhooks.encryption-key must be 32 bytes (base64), got " + raw.length);
        }
        this.key = new SecretKeySpec(raw, "AES");
    }

    /** The sealed form of {@code secret}, bound to {@code recordKey}. */
    public String seal(String secret, String recordKey) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] sealed = crypt(Cipher.ENCRYPT_MODE, nonce, recordKey, secret.getBytes(StandardCharsets.UTF_8));
        byte[] out = new byte[NONCE_BYTES + sealed.length];
        System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
        System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
        return PREFIX + Base64.getEncoder().encodeToString(out);
    }

    /**
     * The secret sealed in {@code sealed} for {@code recordKey}.
     *
     * @throws IllegalArgumentException when it is not ours, was sealed for another key or under another key
     */
    public String open(String sealed, String recordKey) {
        if (sealed == null || !sealed.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a v1 sealed secret");
        }
        byte[] all = Base64.getDecoder().decode(sealed.substring(PREFIX.length()));
        if (all.length <= NONCE_BYTES) {
            throw new IllegalArgumentException("sealed secret too short");
        }
        byte[] nonce = java.util.Arrays.copyOf(all, NONCE_BYTES);
        byte[] body = java.util.Arrays.copyOfRange(all, NONCE_BYTES, all.length);
        return new String(crypt(Cipher.DECRYPT_MODE, nonce, recordKey, body), StandardCharsets.UTF_8);
    }

    private byte[] crypt(int mode, byte[] nonce, String recordKey, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(recordKey.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            // The message names no secret material; the cause is the JCE's (tag mismatch, usually).
            throw new IllegalArgumentException("secret does not open under this key for " + recordKey, e);
        }
    }

    /** Never prints the key. */
    @Override
    public String toString() {
        return "SecretBox[AES-256-GCM]";
    }
}
