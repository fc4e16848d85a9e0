package io.gpuaas.testing.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;

/**
 * Mints RS256 bearer tokens the way gpuaas expects them (issuer {@value #ISSUER} and audience {@value #AUDIENCE},
 * the services' local defaults of {@code gpuaas.security.issuer} and {@code gpuaas.security.audience}; claims
 * {@code sub}, {@code tenant}, {@code namespaces}, {@code roles}, {@code exp}, {@code nbf}) and publishes the public
 * key as a JWKS file for {@code gpuaas.security.jwks-path}. Each instance has its own 2048-bit key, and (made on
 * first use) a second, unpublished key for tokens that must fail verification. The {@code tokenWith...} methods
 * mint the tokens a service must refuse although their signature is good.
 */
public final class TestJwt {

    public static final String ISSUER = "gpuaas-local";
    public static final String AUDIENCE = "gpuaas";
    public static final String TENANT_CLAIM = "tenant";
    public static final String NAMESPACES_CLAIM = "namespaces";
    public static final String ROLES_CLAIM = "roles";

    private final RSAKey key;
    // Generated on first use: RSA key generation costs hundreds of ms on a busy 2-core machine.
    private RSAKey otherKey;

    private TestJwt(RSAKey key) {
        this.key = key;
    }

    /** A new key pair (kid {@code gpuaas-test-<random>}). */
    public static TestJwt generate() {
        return new TestJwt(newKey("gpuaas-test-" + UUID.randomUUID().toString().substring(0, 8)));
    }

    /**
     * Reuses the private key in a JWK file written by {@link #writePrivateJwk(Path)}, so tokens
     * stay valid across restarts (the local stack); generates and writes one if the file is missing. An existing
     * file is narrowed to mode 600 before it is read, since an older stack or a copy may have left it readable by
     * other users.
     */
    public static TestJwt loadOrGenerate(Path privateJwk) {
        try {
            if (Files.exists(privateJwk)) {
                Files.setPosixFilePermissions(privateJwk, PosixFilePermissions.fromString("rw-------"));
                return new TestJwt(RSAKey.parse(Files.readString(privateJwk)));
            }
            TestJwt jwt = generate();
            jwt.writePrivateJwk(privateJwk);
            return jwt;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + privateJwk, e);
        } catch (java.text.ParseException e) {
            throw new IllegalArgumentException("not an RSA JWK: " + privateJwk, e);
        }
    }

    public String keyId() {
        return key.getKeyID();
    }

    /** The public key as a JWK (no private parts). */
    public RSAKey publicJwk() {
        return key.toPublicJWK();
    }

    /** {@code {"keys":[<public JWK>]}}. */
    public String jwksJson() {
        return new JWKSet(key.toPublicJWK()).toString();
    }

    /** Writes {@link #jwksJson()} to the file (parents created) and returns it. */
    public Path writeJwks(Path file) {
        return write(file, jwksJson());
    }

    /**
     * Writes the private key as a JWK, in a new file of mode 600 (given at creation, so the key is never readable by
     * other users); keep it out of anything that ships.
     */
    public Path writePrivateJwk(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            return Files.writeString(file, key.toJSONString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** A token valid from now for {@code ttl}. */
    public String token(String subject, String tenant, List<String> namespaces, List<String> roles, Duration ttl) {
        Instant now = Instant.now();
        return sign(key, claims(subject, tenant, namespaces, roles, now, now.plus(ttl)));
    }

    /** A token issued two hours ago that expired an hour ago, well past any clock-skew allowance. */
    public String expiredToken(String subject, String tenant, List<String> namespaces, List<String> roles) {
        Instant now = Instant.now();
        return sign(
                key,
                claims(
                        subject,
                        tenant,
                        namespaces,
                        roles,
                        now.minus(Duration.ofHours(2)),
                        now.minus(Duration.ofHours(1))));
    }

    /** A correctly signed token without {@code exp}: it would never expire, so it must be refused. */
    public String tokenWithoutExpiry(String subject, String tenant, List<String> namespaces, List<String> roles) {
        Instant now = Instant.now();
        return sign(
                key,
                new JWTClaimsSet.Builder(claims(subject, tenant, namespaces, roles, now, now))
                        .expirationTime(null)
                        .build());
    }

    /** A token that becomes valid only at {@code notBefore} (and lasts an hour from then). */
    public String tokenNotBefore(
            Instant notBefore, String subject, String tenant, List<String> namespaces, List<String> roles) {
        return sign(
                key,
                new JWTClaimsSet.Builder(claims(
                                subject, tenant, namespaces, roles, Instant.now(), notBefore.plus(Duration.ofHours(1))))
                        .notBeforeTime(Date.from(notBefore))
                        .build());
    }

    /** A valid-for-five-minutes token from another issuer ({@code iss}), or without one when {@code issuer} is null. */
    public String tokenWithIssuer(
            String issuer, String subject, String tenant, List<String> namespaces, List<String> roles) {
        Instant now = Instant.now();
        return sign(
                key,
                new JWTClaimsSet.Builder(
                                claims(subject, tenant, namespaces, roles, now, now.plus(Duration.ofMinutes(5))))
                        .issuer(issuer)
                        .build());
    }

    /** A valid-for-five-minutes token for other audiences ({@code aud}), or none when the list is empty. */
    public String tokenWithAudience(
            List<String> audience, String subject, String tenant, List<String> namespaces, List<String> roles) {
        Instant now = Instant.now();
        return sign(
                key,
                new JWTClaimsSet.Builder(
                                claims(subject, tenant, namespaces, roles, now, now.plus(Duration.ofMinutes(5))))
                        .audience(audience.isEmpty() ? null : List.copyOf(audience))
                        .build());
    }

    /**
     * A well-formed, unexpired token whose header names the trusted kid but whose signature comes
     * from another key, so verification against the JWKS must fail.
     */
    public String tokenSignedByOtherKey(
            String subject, String tenant, List<String> namespaces, List<String> roles, Duration ttl) {
        Instant now = Instant.now();
        return sign(otherKey(), claims(subject, tenant, namespaces, roles, now, now.plus(ttl)));
    }

    // The untrusted key reuses the trusted kid, so a verifier finds "its" key and must reject the signature.
    private synchronized RSAKey otherKey() {
        if (otherKey == null) {
            otherKey = newKey(key.getKeyID());
        }
        return otherKey;
    }

    private static JWTClaimsSet claims(
            String subject,
            String tenant,
            List<String> namespaces,
            List<String> roles,
            Instant issuedAt,
            Instant expiresAt) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(subject)
                .jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(issuedAt))
                .notBeforeTime(Date.from(issuedAt))
                .expirationTime(Date.from(expiresAt))
                .claim(NAMESPACES_CLAIM, List.copyOf(namespaces))
                .claim(ROLES_CLAIM, List.copyOf(roles));
        if (tenant != null) {
            claims.claim(TENANT_CLAIM, tenant);
        }
        return claims.build();
    }

    private static String sign(RSAKey signingKey, JWTClaimsSet claims) {
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(signingKey.getKeyID())
                .type(JOSEObjectType.JWT)
                .build();
        SignedJWT jwt = new SignedJWT(header, claims);
        try {
            jwt.sign(new RSASSASigner(signingKey));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign token", e);
        }
        return jwt.serialize();
    }

    private static RSAKey newKey(String kid) {
        try {
            return new RSAKeyGenerator(2048)
                    .keyID(kid)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256)
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot generate RSA key", e);
        }
    }

    private static Path write(Path file, String content) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
