package io.gpuaas.kit.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.JWTClaimsSet;
import io.gpuaas.kit.config.SecuritySettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import org.junit.jupiter.api.Test;

class TokenClaimsValidatorTest {

    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    private final TokenClaimsValidator<Object> validator = new TokenClaimsValidator<>(
            new SecuritySettings(
                    null,
                    "https://idp.example/realms/gpuaas",
                    "gpuaas",
                    Duration.ofSeconds(60),
                    null,
                    null,
                    null,
                    null),
            Clock.fixed(NOW, ZoneOffset.UTC));

    private static JWTClaimsSet.Builder valid() {
        return new JWTClaimsSet.Builder()
                .issuer("https://idp.example/realms/gpuaas")
                .audience("gpuaas")
                .subject("u")
                .expirationTime(Date.from(NOW.plusSeconds(300)));
    }

    @Test
    void shouldAcceptWhenLifetimeAndIssuerAreRight() {
        assertThat(validator.violation(valid().build())).isEmpty();
    }

    @Test
    void shouldRefuseWhenExpMissingOrPastTheSkew() {
        assertThat(validator.violation(valid().expirationTime(null).build())).hasValue("no exp claim");
        assertThat(validator.violation(
                        valid().expirationTime(Date.from(NOW.minusSeconds(61))).build()))
                .isPresent();
        assertThat(validator.violation(
                        valid().expirationTime(Date.from(NOW.minusSeconds(59))).build()))
                .as("within the skew")
                .isEmpty();
    }

    @Test
    void shouldRefuseWhenNotBeforeIsAheadOfTheSkew() {
        assertThat(validator.violation(
                        valid().notBeforeTime(Date.from(NOW.plusSeconds(61))).build()))
                .isPresent();
        assertThat(validator.violation(
                        valid().notBeforeTime(Date.from(NOW.plusSeconds(59))).build()))
                .isEmpty();
    }

    @Test
    void shouldRefuseWhenIssuerIsNotExactlyOurs() {
        assertThat(validator.violation(valid().issuer("https://evil.example/idp.example/realms/gpuaas")
                        .build()))
                .isPresent();
        assertThat(validator.violation(
                        valid().issuer("https://idp.example/realms/gpuaas/").build()))
                .isPresent();
        assertThat(validator.violation(valid().issuer(null).build())).isPresent();
    }
}
