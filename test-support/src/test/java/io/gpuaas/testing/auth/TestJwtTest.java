package io.gpuaas.testing.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestJwtTest {

    private static final TestJwt JWT = TestJwt.generate();

    @Test
    void shouldVerifyAgainstWrittenJwksWhenTokenIsMinted(@TempDir Path dir) throws Exception {
        Path jwks = JWT.writeJwks(dir.resolve("conf/jwks.json"));

        SignedJWT token = SignedJWT.parse(
                JWT.token("alice", "team-a", List.of("team-a", "team-a-dev"), List.of("user"), Duration.ofMinutes(5)));
        RSAKey key = (RSAKey)
                JWKSet.load(jwks.toFile()).getKeyByKeyId(token.getHeader().getKeyID());

        assertThat(key).as("JWKS holds the token's kid").isNotNull();
        assertThat(key.isPrivate()).as("JWKS must not leak the private key").isFalse();
        assertThat(token.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(token.verify(new RSASSAVerifier(key))).isTrue();
        JWTClaimsSet claims = token.getJWTClaimsSet();
        assertThat(claims.getIssuer()).isEqualTo("gpuaas-local");
        assertThat(claims.getSubject()).isEqualTo("alice");
        assertThat(claims.getStringClaim("tenant")).isEqualTo("team-a");
        assertThat(claims.getStringListClaim("namespaces")).containsExactly("team-a", "team-a-dev");
        assertThat(claims.getStringListClaim("roles")).containsExactly("user");
        assertThat(claims.getExpirationTime()).isAfter(new Date());
    }

    @Test
    void shouldFailVerificationWhenTokenIsSignedByOtherKey() throws Exception {
        SignedJWT token = SignedJWT.parse(JWT.tokenSignedByOtherKey(
                "mallory", "team-a", List.of("team-a"), List.of("admin"), Duration.ofMinutes(5)));

        assertThat(token.getHeader().getKeyID()).isEqualTo(JWT.keyId());
        assertThat(token.verify(new RSASSAVerifier(JWT.publicJwk()))).isFalse();
    }

    @Test
    void shouldCarryPastExpiryWhenTokenIsExpired() throws Exception {
        SignedJWT token = SignedJWT.parse(JWT.expiredToken("bob", "team-b", List.of("team-b"), List.of()));

        assertThat(token.verify(new RSASSAVerifier(JWT.publicJwk()))).isTrue();
        assertThat(token.getJWTClaimsSet().getExpirationTime())
                .isBefore(Date.from(java.time.Instant.now().minus(Duration.ofMinutes(30))));
    }

    @Test
    void shouldKeepSigningKeyWhenLoadedAgainFromPrivateJwk(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("signing-key.json");
        TestJwt first = TestJwt.loadOrGenerate(file);
        TestJwt second = TestJwt.loadOrGenerate(file);

        SignedJWT token =
                SignedJWT.parse(second.token("admin", null, List.of(), List.of("admin"), Duration.ofHours(8)));

        assertThat(Files.exists(file)).isTrue();
        assertThat(second.keyId()).isEqualTo(first.keyId());
        assertThat(token.verify(new RSASSAVerifier(first.publicJwk()))).isTrue();
        assertThat(token.getJWTClaimsSet().getClaim("tenant")).isNull();
    }

    @Test
    void shouldNarrowAnExistingPrivateJwkToTheOwnerWhenLoaded(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jwt-private.jwk");
        TestJwt written = TestJwt.generate();
        String key = Files.readString(written.writePrivateJwk(dir.resolve("source.jwk")));
        // As an older stack, or a copy with the default umask, may have left it: readable by every local user.
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        Files.writeString(file, key);

        TestJwt loaded = TestJwt.loadOrGenerate(file);

        assertThat(loaded.keyId()).isEqualTo(written.keyId());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }
}
