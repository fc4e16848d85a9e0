package io.gpuaas.booking.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    @Test
    void shouldMatchTheStandardWebhooksTestVectorWhenSigning() {
        String signature = WebhookSigner.sign(
                "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                "msg_p5jXN8AQM9LWM0D4loKWxJek",
                1614265330L,
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));

        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void shouldHand32RandomBytesWithThePrefixWhenASecretIsMade() {
        String one = WebhookSigner.newSecret();
        String two = WebhookSigner.newSecret();

        assertThat(one).startsWith("whsec_").isNotEqualTo(two);
        assertThat(Base64.getDecoder().decode(one.substring(6))).hasSize(32);
    }

    @Test
    void shouldRefuseASecretWithoutThePrefixWhenSigning() {
        assertThatThrownBy(() -> WebhookSigner.sign("abc", "m", 1, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("abc");
    }
}
