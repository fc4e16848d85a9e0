package io.gpuaas.kit.security;

import com.nimbusds.jwt.JWTClaimsSet;
import io.gpuaas.kit.config.SecuritySettings;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.security.token.Claims;
import io.micronaut.security.token.jwt.validator.AudienceJwtClaimsValidator;
import io.micronaut.security.token.jwt.validator.ExpirationJwtClaimsValidator;
import io.micronaut.security.token.jwt.validator.GenericJwtClaimsValidator;
import io.micronaut.security.token.jwt.validator.JWTClaimsSetUtils;
import io.micronaut.security.token.jwt.validator.JwtClaimsValidatorConfiguration;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifetime and origin of a token: {@code exp} required and not past, {@code nbf} (when present) not ahead, both
 * within {@code gpuaas.security.clock-skew}; {@code iss} exactly {@code gpuaas.security.issuer}; {@code aud} holding
 * {@code gpuaas.security.audience}, checked by Micronaut's {@link AudienceJwtClaimsValidator} (held here rather than
 * configured through {@code micronaut.security.token.jwt.claims-validators.audience}, so one key sets it everywhere).
 *
 * <p>Why not Micronaut's validators for these three: its expiration check accepts a token without {@code exp}
 * (it would never expire) and neither it nor the not-before check allows any skew; its issuer check is a suffix
 * match ({@code evil-gpuaas-local} passes for {@code gpuaas-local}). This bean replaces the expiration validator
 * so a late token is judged once, with the skew. Built at start ({@code @Context}) so a missing issuer or audience
 * stops the service instead of its first request.
 */
@Context
@Replaces(ExpirationJwtClaimsValidator.class)
public class TokenClaimsValidator<T> implements GenericJwtClaimsValidator<T> {

    private static final Logger LOG = LoggerFactory.getLogger(TokenClaimsValidator.class);

    private final SecuritySettings settings;
    private final Clock clock;
    private final AudienceJwtClaimsValidator<T> audience;

    @Inject
    public TokenClaimsValidator(SecuritySettings settings) {
        this(settings, Clock.systemUTC());
    }

    TokenClaimsValidator(SecuritySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.audience = new AudienceJwtClaimsValidator<>(new AudienceOnly(settings.audience()));
    }

    @Override
    public boolean validate(Claims claims, T request) {
        Optional<String> violation = violation(JWTClaimsSetUtils.jwtClaimsSetFromClaims(claims));
        // Debug only: a stream of forged tokens must not flood the log; the caller gets a plain 401 either way.
        violation.ifPresent(v -> LOG.debug("token of {} refused: {}", claims.get(Claims.SUBJECT), v));
        return violation.isEmpty() && audience.validate(claims, request);
    }

    /** What is wrong with the token's lifetime or issuer, empty when nothing. */
    Optional<String> violation(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Date expires = claims.getExpirationTime();
        if (expires == null) {
            return Optional.of("no exp claim");
        }
        if (now.isAfter(expires.toInstant().plus(settings.clockSkew()))) {
            return Optional.of("expired at " + expires.toInstant());
        }
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now.isBefore(notBefore.toInstant().minus(settings.clockSkew()))) {
            return Optional.of("not valid before " + notBefore.toInstant());
        }
        if (!settings.issuer().equals(claims.getIssuer())) {
            return Optional.of("issuer " + claims.getIssuer() + " is not " + settings.issuer());
        }
        return Optional.empty();
    }

    /** Only the audience is read by that validator; the rest are Micronaut's defaults. */
    private record AudienceOnly(String audience) implements JwtClaimsValidatorConfiguration {
        @Override
        public String getAudience() {
            return audience;
        }

        @Override
        public String getIssuer() {
            return null;
        }

        @Override
        public boolean isSubjectNotNull() {
            return true;
        }

        @Override
        public boolean isNotBefore() {
            return true;
        }

        @Override
        public boolean isExpiration() {
            return true;
        }

        @Override
        public boolean isNonce() {
            return true;
        }

        @Override
        public boolean isOpenidIdtoken() {
            return true;
        }
    }
}
