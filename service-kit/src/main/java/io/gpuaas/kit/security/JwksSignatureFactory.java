package io.gpuaas.kit.security;

import com.nimbusds.jose.jwk.JWKSet;
import io.gpuaas.kit.config.SecuritySettings;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.security.token.jwt.signature.SignatureConfiguration;
import io.micronaut.security.token.jwt.signature.jwks.JWKSetJwksSignature;
import io.micronaut.security.token.jwt.signature.jwks.JwkValidator;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.File;
import java.io.IOException;
import java.text.ParseException;

/**
 * Tokens are valid when signed by a key of the JWKS file at {@code gpuaas.security.jwks-path} (mounted from a
 * Secret or ConfigMap in a cluster, written by the local stack on one machine). Keys are read once at start.
 */
@Factory
public class JwksSignatureFactory {

    @Singleton
    @Named("gpuaas")
    @Requires(property = "gpuaas.security.jwks-path")
    SignatureConfiguration gpuaasJwks(SecuritySettings settings, JwkValidator validator) {
        File file = new File(settings.jwksPath());
        try {
            return new JWKSetJwksSignature(validator, JWKSet.load(file));
        } catch (IOException | ParseException e) {
            throw new ConfigurationException("gpuaas.security.jwks-path: cannot read a JWKS from " + file, e);
        }
    }
}
