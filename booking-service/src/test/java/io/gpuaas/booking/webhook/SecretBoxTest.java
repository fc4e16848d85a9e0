package io.gpuaas.booking.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretBoxTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String OTHER_KEY = Base64.getEncoder()
            .encodeToString("0123456789abcdef0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    @Test
    void shouldOpenWhatItSealedWhenTheRecordKeyIsTheSame() {
        SecretBox box = new SecretBox(KEY);
        String sealed = box.seal("whsec_abc", "team-a/wh-1");

        assertThat(sealed).startsWith("v1.").doesNotContain("whsec_abc");
        assertThat(box.open(sealed, "team-a/wh-1")).isEqualTo("whsec_abc");
    }

    @Test
    void shouldSealTheSameSecretDifferentlyEachTimeWhenANewNonceIsDrawn() {
        SecretBox box = new SecretBox(KEY);

        assertThat(box.seal("whsec_abc", "k")).isNotEqualTo(box.seal("whsec_abc", "k"));
    }

    @Test
    void shouldRefuseToOpenWhenTheCiphertextWasCopiedToAnotherRegistration() {
        SecretBox box = new SecretBox(KEY);
        String sealed = box.seal("whsec_abc", "team-a/wh-1");

        assertThatThrownBy(() -> box.open(sealed, "team-b/wh-1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseToOpenWhenTheKeyDiffers() {
        String sealed = new SecretBox(KEY).seal("whsec_abc", "k");

        assertThatThrownBy(() -> new SecretBox(OTHER_KEY).open(sealed, "k"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseAKeyOfTheWrongLengthWithoutEchoingItWhenConfigured() {
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);

        assertThatThrownBy(() -> new SecretBox(shortKey))
                .hasMessageContaining("32 bytes")
                .hasMessageNotContaining(shortKey);
        assertThat(new SecretBox(KEY).toString()).doesNotContain(KEY);
    }
}
