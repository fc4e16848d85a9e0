package io.gpuaas.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * Client settings for the embedded broker's two SASL mechanisms: PLAIN for its one super user (declared in the
 * broker's listener configuration, as a bootstrap identity must be) and SCRAM-SHA-512 for every other user, created
 * at run time through the Admin API like Strimzi's User Operator does in a cluster.
 */
public final class KafkaCredentials {

    /** The super user: creates topics, users and ACLs, and is the broker's own identity on its listeners. */
    public static final String ADMIN = "gpuaas-admin";
    /** The mechanism of every user but {@link #ADMIN}. */
    public static final String SCRAM = "SCRAM-SHA-512";

    private static final SecureRandom RANDOM = new SecureRandom();

    private KafkaCredentials() {}

    /** A new random password (192 bits, URL-safe base64). */
    public static String randomPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The password of {@code user} on a broker whose super user has {@code adminPassword}: an HMAC of the name. */
    public static String derivedPassword(String adminPassword, String user) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(adminPassword.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(mac.doFinal(user.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** {@code security.protocol}, {@code sasl.mechanism} and {@code sasl.jaas.config} of a SCRAM-SHA-512 user. */
    public static Map<String, Object> scram(String user, String password) {
        return sasl(SCRAM, "org.apache.kafka.common.security.scram.ScramLoginModule", user, password);
    }

    /** The same for the PLAIN super user. */
    static Map<String, Object> plain(String user, String password) {
        return sasl("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule", user, password);
    }

    private static Map<String, Object> sasl(String mechanism, String module, String user, String password) {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put(SaslConfigs.SASL_MECHANISM, mechanism);
        props.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                module + " required username=\"" + user + "\" password=\"" + password + "\";");
        return props;
    }

    /**
     * The broker side of a listener's PLAIN login: the users it accepts ({@code user_<name>="<password>"}), the super
     * user (also the identity the broker logs in with on that listener) and {@code plainUsers} with their
     * {@link #derivedPassword derived} passwords.
     */
    static String serverPlainJaas(String adminPassword, Collection<String> plainUsers) {
        StringBuilder jaas = new StringBuilder(
                        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"")
                .append(ADMIN)
                .append("\" password=\"")
                .append(adminPassword)
                .append("\" user_")
                .append(ADMIN)
                .append("=\"")
                .append(adminPassword)
                .append('"');
        for (String user : plainUsers) {
            jaas.append(" user_")
                    .append(user)
                    .append("=\"")
                    .append(derivedPassword(adminPassword, user))
                    .append('"');
        }
        return jaas.append(';').toString();
    }

    /** The broker side of a listener's SCRAM login: users come from the cluster metadata, not from here. */
    static String serverScramJaas() {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required;";
    }
}
